"""How a join's columns and rows are said in a question (issue 36; split from datagen.grid_joins, session 57): a
header turned into the noun a person says, and the words that join two things.

A database's header is no English: "CustomerID", "Product_Name", "Mgr", "ShipVia", "ReportsTo". A hop of a join
(datagen.grid_joins) is said by the thing it reaches, so each header is read as that thing ("customer", "product",
"manager", "shipper") or refused when it names none (a participle "Approved", a pivot's "By Region"); two things are
joined as a person joins them ("the customer who placed order 10248", "the product in order 1043", "the order in
order detail 53", else "of"). Pure functions of the header's text: no table, no corpus.
"""

from __future__ import annotations

import re

# words that say "this column holds a key", not what the key names
KEY_WORDS = frozenset({"id", "key", "code", "no", "nr", "num", "number", "ref", "fk", "pk", "sku"})
# a database's abbreviations of the things it keys, said in full ("Mgr": the manager)
_SAID_IN_FULL = {
    "mgr": "manager",
    "emp": "employee",
    "dept": "department",
    "cust": "customer",
    "prod": "product",
    "cat": "category",
    "loc": "location",
    "supp": "supplier",
    "qty": "quantity",
}
# a column named by what its row's thing does, said by who does it ("ReportsTo": the manager)
_DOER = {
    "reports to": "manager",
    "ship via": "shipper",
    "shipped via": "shipper",
    "managed by": "manager",
    "assigned to": "assignee",
    "sold by": "seller",
    "created by": "creator",
    "owned by": "owner",
}
_PREPOSITIONS = frozenset({"to", "by", "via", "from", "for", "of", "in", "at", "with", "on", "per"})
# the hop words ("the customer who placed order 7", "the product in order 7", "the order in order detail 53")
_BUYERS = frozenset({"customer", "client", "buyer"})
_ORDERS = frozenset({"order", "sale", "invoice", "purchase", "booking", "transaction", "reservation"})
_PLACED = frozenset({"order", "purchase", "booking", "reservation"})  # "who placed sale 126" is no one's English
_LINES = frozenset({"detail", "details", "line", "entry"})
_GOODS = frozenset({"product", "item", "course", "book", "part", "article", "pizza", "dish"})
# the kinds of thing a name is said with ("the Apollo project", "the Sales department"); a person's or a company's
# name is said alone ("Ana Ruiz", never "the Ana Ruiz employee")
NAMED_KINDS = frozenset(
    {
        "project",
        "category",
        "type",
        "department",
        "team",
        "region",
        "store",
        "branch",
        "course",
        "program",
        "campaign",
        "class",
        "group",
        "brand",
        "segment",
        "division",
        "plan",
        "module",
        "zone",
        "territory",
        "warehouse",
        "channel",
        "site",
        "office",
        "subject",
        "genre",
        "section",
        "market",
        "phase",
    }
)


def column_words(name: str) -> list[str]:
    """A column name's words: "CustomerID" → customer id, "unit_price" → unit price, "Price (INR)" → price inr."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return [w.lower() for w in re.findall(r"[A-Za-z]+", spaced)]


def column_stems(name: str) -> set[str]:
    return {w.rstrip("s") for w in column_words(name) if w not in KEY_WORDS and len(w) >= 3}


def key_noun(name: str) -> str:
    """What a key column's values are: "Customer_ID" → "customer", "ProductSubcategoryKey" → "product subcategory"."""
    return " ".join(_SAID_IN_FULL.get(w, w) for w in column_words(name) if w not in KEY_WORDS)  # "EmpNo": employee


def thing_of(column: str) -> str | None:
    """The thing a link's column names, as a person says it ("CustomerID" → customer, "Product_Name" → product,
    "Mgr" → manager, "ShipVia" → shipper); None when its header names no thing ("Assigned", "Sold By Region"): a
    hop said by no noun garbles the question, so the link is refused."""
    words = [_SAID_IN_FULL.get(w, w) for w in column_words(column) if w not in KEY_WORDS]
    if len(words) >= 2 and words[-1] in ("name", "title"):
        words = words[:-1]  # a column of names keys the thing named: "the product of order 7", not "the product name"
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith(("ss", "us", "is")):
        # a row names one thing under a plural header ("Products": one product a row): "the price of the product"
        words[-1] = words[-1][:-3] + "y" if words[-1].endswith("ies") else words[-1][:-1]
    said = " ".join(words)
    if said in _DOER:
        return _DOER[said]
    if not words or len(words) > 2 or not ends_noun(words[-1]) or _PREPOSITIONS & set(words):
        # a verb phrase or a participle ("reports to", "approved"), a pivot's grouping ("By Region"): no thing a hop
        # can reach
        return None
    return said


def ends_noun(word: str) -> bool:
    """Whether a header's last word can end a noun phrase: no preposition ("Reports To"), no participle ("Approved")."""
    return word not in _PREPOSITIONS and not (word.endswith("ed") and len(word) > 4 and not word.endswith("eed"))


def hop_joint(outer: str, inner: str) -> str:
    """How a hop's thing is said with the thing (or row) it is reached from: "the customer who placed order 10248",
    "the order in order detail 53", "the product in order 1043", else "the country of location 1700"."""
    out, last = outer.split()[-1], inner.split()[-1] if inner else ""
    # an order's item is a line of it ("the product in order item 7"), a catalogue's item a thing ("the supplier of
    # item 7")
    line = last in _LINES or last == "item" and len(inner.split()) > 1 and inner.split()[0] in {*_ORDERS, "line"}
    if out in _BUYERS and last in _PLACED:
        return "who placed"
    if line or (last in _ORDERS and out in _GOODS):
        return "in"
    return "of"


def column_phrase(column: str) -> str:
    """A column as said in a question: "UnitPrice" → "unit price", "Price (INR)" → "price (INR)"."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", column.replace("_", " "))
    if column.isupper():
        said = spaced.lower()  # a shouted name ("REGION_NAME", an Oracle export's) is no acronym
    else:
        said = " ".join(w if (w.isupper() and len(w) > 1) or not w.isalpha() else w.lower() for w in spaced.split())
    # a database's abbreviations said in full ("numCredits": the number of credits)
    return re.sub(r"\b(?:num|no of|nbr) ", "number of ", re.sub(r"\bqty\b", "quantity", said))
