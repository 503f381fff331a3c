"""Questions across two tables of a folder's workbooks: lookup joins (datagen.grid_joins; issue 36)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator, sheet_table

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.verify import check_candidate


def _meta(source: str, section: str, header: str) -> dict:
    return {"source": source, "section": section, "kind": "table", "header": header, "title": ""}


def _chunks() -> list[Chunk]:
    orders, customers, other, book = (
        "acme/Orders.xlsx",
        "acme/Customers.xlsx",
        "zeta/Customers.xlsx",
        "acme/Projects.xlsx",
    )
    return [
        sheet_table(
            "ord#0",
            orders,
            "Sheet1",
            "Order_ID | Customer_ID | Quantity | Status",
            "ORD-1 | C001 | 5 | Completed\nORD-2 | C002 | 3 | Completed\nORD-3 | C003 | 7 | Open",
        ),
        # the rows of the same table, its header row in the chunk before
        Chunk(
            "ord#1",
            orders,
            "ORD-4 | C001 | 2 | Open",
            1,
            40,
            _meta(orders, "Sheet1", "columns: Customer_ID | Quantity | Status · Order_ID"),
        ),
        sheet_table(
            "cus#0",
            customers,
            "Sheet1",
            "Customer_ID | Company Name | City | Email",
            "C001 | Hanari Carnes | Lyon | a@x.org\nC002 | Around the Horn | Leeds | b@x.org\nC003 | Berglunds Snabbkop | Lulea | c@x.org",
        ),
        # another user's folder, keyed alike: another company's customers, never the orders' table
        sheet_table(
            "oth#0",
            other,
            "Sheet1",
            "Customer_ID | Company Name | City",
            "C001 | Zeta Foods | Oslo\nC002 | Zeta Two | Bergen\nC003 | Zeta Three | Tromso",
        ),
        # two sheets of one workbook: a project's manager is a row of the Staff sheet
        sheet_table(
            "prj#0",
            book,
            "Projects",
            "Project | Manager | Budget",
            "Apollo | Ana Ruiz | 1,200\nHermes | Bo Chen | 800\nZeus | Cy Park | 950",
        ),
        sheet_table(
            "prj#1",
            book,
            "Staff",
            "Name | Department | Phone",
            "Ana Ruiz | Finance | 555-1\nBo Chen | Legal | 555-2\nCy Park | Sales | 555-3",
            at=1,
        ),
    ]


def test_a_column_whose_values_key_another_table_is_asked_across_both_and_verified() -> None:
    from datagen.grid_joins import GridJoins

    mined = mine(_chunks())
    generator = GridJoins(NoProseGenerator(), mined)
    texts = {d: "\n\n".join(c.text for c in cs) for d, cs in mined.chunks.items()}
    chunk_texts = {c.chunk_id: c.text for cs in mined.chunks.values() for c in cs}
    made = {}
    for hops in (1, 2):
        for _link, joins in generator.pending[hops].items():
            for join in joins:
                c = generator._candidate(join)
                made[c.question] = c
                verdict = check_candidate(c, texts, chunk_texts)
                assert verdict.accepted, (c.question, verdict.details)
    across = made["What is the company name of the customer who placed order ORD-2 in the Orders workbook?"]
    assert across.answer == "Around the Horn" and across.hops == 2 and across.bridges == ("C002",)
    assert [i.doc_id for i in across.supporting] == ["acme/Orders.xlsx", "acme/Customers.xlsx"]
    # the continued chunk's row is joined too
    assert made["What is the city of the customer who placed order ORD-4 in the Orders workbook?"].answer == "Lyon"
    sheets = made["What is the department of the manager of the Apollo project in the Projects workbook?"]
    assert sheets.answer == "Finance" and sheets.hops == 1 and len(sheets.supporting[0].chunk_ids) == 2
    # contact data is no property; the other folder's customers are never the orders' table
    assert not [q for q in made if "email" in q or "phone" in q]
    assert not [c for c in made.values() if "Zeta" in c.answer]
    assert generator.own_stages["grid_join:links"] == 2


def test_joins_are_written_by_the_pipeline_and_capped_per_link(tmp_path: Path) -> None:
    from datagen.grid_joins import GridJoins

    mined = mine(_chunks())
    generator = GridJoins(NoProseGenerator(), mined, per_link=2)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=20, hops=(1, 2), patience=30, seed=1))
    tasks = read_task_file(tmp_path / "t.jsonl")
    forms = Counter(t.metadata.get("grid_form") for t in tasks)
    assert forms["join_workbooks"] == 2 and forms["join_sheets"] == 2, forms
    assert all(t.hops == 2 for t in tasks if t.metadata["grid_form"] == "join_workbooks")


def test_a_first_table_whose_keys_repeat_asks_nothing() -> None:
    from datagen.grid_joins import GridJoins

    details = "acme/Order_Details.xlsx"
    chunks = [
        *_chunks(),
        # order ORD-1 lists two customers' lines: "the customer of order ORD-1" is either
        sheet_table(
            "det#0",
            details,
            "Sheet1",
            "Order_ID | Customer_ID | Units",
            "ORD-1 | C001 | 4\nORD-1 | C002 | 6\nORD-2 | C003 | 1\nORD-3 | C002 | 2",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    assert not [path for path in generator.pending[2] if path[0].a.doc_id == details]
    assert generator.own_stages["grid_join:first table's keys repeat"] == 1


def test_contact_data_a_sheet_named_as_its_workbook_and_a_row_two_workbooks_name_alike() -> None:
    from datagen.grid_joins import GridJoins

    sales, products, other = "acme/Sales.xlsx", "acme/Products.xlsx", "zeta/Sales.xlsx"
    chunks = [
        sheet_table(
            "sal#0", sales, "Sales", "SaleID | Product | Qty", "1 | P001 | 4\n2 | P002 | 6\n3 | P003 | 1\n4 | P001 | 2"
        ),
        sheet_table(
            "pro#0",
            products,
            "Sheet1",
            "ProductID | ProductName | SupplierContact",
            "P001 | Drill | a@s.com\nP002 | Saw | b@s.com\nP003 | Vice | c@s.com",
        ),
        # another folder's Sales workbook (its sheet named as it) with a sale 4 of its own
        sheet_table("oth#0", other, "Sales", "SaleID | Item | Qty", "4 | Bolt | 9\n5 | Nut | 3"),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question: j.answer for js in generator.pending[2].values() for j in js}
    assert made["What is the name of the product in sale 1 in the Sales workbook?"] == "Drill"
    assert not [q for q in made if "contact" in q]  # "SupplierContact" is contact data
    assert not [q for q in made if "sale 4 " in q] and generator.own_stages["grid_join:first row named alike elsewhere"]


def test_a_code_key_is_said_with_its_noun_and_a_shouted_column_in_lower_case() -> None:
    from datagen.grid_joins import GridJoins

    country, regions = "hr/Country.xlsx", "hr/Regions.xlsx"
    chunks = [
        sheet_table(
            "cou#0",
            country,
            "Export Worksheet",
            "COUNTRY_ID | COUNTRY_NAME | REGION_ID",
            "IT | Italy | 1\nJP | Japan | 3\nUS | United States | 2",
        ),
        sheet_table(
            "reg#0", regions, "Export Worksheet", "REGION_ID | REGION_NAME", "1 | Europe\n2 | Americas\n3 | Asia"
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question: j.answer for js in generator.pending[2].values() for j in js}
    assert made == {
        # a database export's sheet name is not said: "in the Export Worksheet sheet of the Country workbook"
        f"What is the name of the region of country {k} in the Country workbook?": v
        for k, v in (("IT", "Europe"), ("JP", "Asia"), ("US", "Americas"))
    }


def test_links_are_followed_on_through_a_third_workbook() -> None:
    from datagen.grid_joins import GridJoins

    location, country, regions = "hr/Location.xlsx", "hr/Country.xlsx", "hr/Regions.xlsx"
    chunks = [
        sheet_table(
            "loc#0",
            location,
            "Sheet1",
            "LOCATION_ID | CITY | COUNTRY_ID",
            "1000 | Roma | IT\n1300 | Tokyo | JP\n1400 | Southlake | US",
        ),
        sheet_table(
            "cou#0",
            country,
            "Sheet1",
            "COUNTRY_ID | COUNTRY_NAME | REGION_ID",
            "IT | Italy | 1\nJP | Japan | 3\nUS | United States | 2",
        ),
        sheet_table("reg#0", regions, "Sheet1", "REGION_ID | REGION_NAME", "1 | Europe\n2 | Americas\n3 | Asia"),
    ]
    mined = mine(chunks)
    generator = GridJoins(NoProseGenerator(), mined)
    made = {
        generator._candidate(j).question: generator._candidate(j) for js in generator.pending[3].values() for j in js
    }
    chain = made["What is the name of the region of the country of location 1300 in the Location workbook?"]
    assert chain.answer == "Asia" and chain.hops == 3 and chain.bridges == ("JP", "3")
    assert [i.doc_id for i in chain.supporting] == [location, country, regions]
    texts = {d: "\n\n".join(c.text for c in cs) for d, cs in mined.chunks.items()}
    chunk_texts = {c.chunk_id: c.text for cs in mined.chunks.values() for c in cs}
    assert check_candidate(chain, texts, chunk_texts).accepted


def test_a_column_is_said_in_words_a_database_s_abbreviations_in_full() -> None:
    from datagen.grid_join_words import column_phrase

    said = {
        c: column_phrase(c) for c in ("numCredits", "Qty", "UnitPrice", "REGION_NAME", "Price (INR)", "No of Units")
    }
    assert said == {
        "numCredits": "number of credits",
        "Qty": "quantity",
        "UnitPrice": "unit price",
        "REGION_NAME": "region name",
        "Price (INR)": "price (INR)",
        "No of Units": "number of units",
    }


def test_a_join_one_search_solves_is_dropped_as_any_bridge_is(tmp_path: Path) -> None:
    from datagen.grid_joins import GridJoins

    mined = mine(_chunks())
    every = list(mined.chunks)

    def searcher(question: str) -> dict:
        return {"hybrid": every, "bm25": every, "dense": every}  # every document found by the question alone

    generator = GridJoins(NoProseGenerator(), mined)
    config = GenerateConfig(n=20, hops=(2,), patience=30, seed=1, solved_budget=0.0)
    report = generate(generator, mined, tmp_path / "t.jsonl", config, searcher=searcher)
    assert not [t for t in read_task_file(tmp_path / "t.jsonl") if t.hops >= 2]
    assert report.drops.get("one_search_solves", 0) > 0


def test_a_chain_that_ends_as_a_direct_link_does_is_asked_by_its_hops() -> None:
    from datagen.grid_joins import GridJoins

    invoices = "acme/Invoices.xlsx"
    orders = "acme/Orders.xlsx"
    chunks = [
        *[c for c in _chunks() if c.doc_id != orders],
        # an order names its customer and its invoice, and the invoice names a customer too
        sheet_table(
            "ord#0",
            orders,
            "Sheet1",
            "Order_ID | Customer_ID | Invoice_ID",
            "ORD-1 | C001 | INV-1\nORD-2 | C002 | INV-2\nORD-3 | C003 | INV-3",
        ),
        sheet_table(
            "inv#0",
            invoices,
            "Sheet1",
            "Invoice_ID | Customer_ID | Total",
            "INV-1 | C002 | 10\nINV-2 | C003 | 20\nINV-3 | C001 | 30",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    # "the customer of order ORD-1" is the order's own customer, never the invoice's
    assert (
        made["What is the company name of the customer who placed order ORD-1 in the Orders workbook?"]
        == "Hanari Carnes"
    )
    # and the invoice's customer is asked too, each hop said (it had been refused as "the customer of order ORD-1")
    assert (
        made["What is the company name of the customer of the invoice of order ORD-1 in the Orders workbook?"]
        == "Around the Horn"
    ), sorted(made)


def test_a_key_the_question_s_words_hold_bridges_nothing() -> None:
    from datagen.grid_joins import GridJoins

    pizzas, types = "shop/pizzas.xlsx", "shop/Pizza_types.xlsx"
    chunks = [
        sheet_table(
            "piz#0",
            pizzas,
            "Sheet1",
            "pizza_id | pizza_type_id | size",
            "bbq_ckn_s | bbq_ckn | S\nhawaiian_m | hawaiian | M\nveggie_l | veggie | L\np4 | veggie | S",
        ),
        sheet_table(
            "typ#0",
            types,
            "Sheet1",
            "pizza_type_id | name | category",
            "bbq_ckn | The BBQ Chicken Pizza | Chicken\nhawaiian | The Hawaiian Pizza | Classic\nveggie | The Veggie Pizza | Veggie",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question: j.answer for js in generator.pending[2].values() for j in js}
    # "pizza veggie_l" holds its type's key (veggie); "pizza p4" does not
    assert not [q for q in made if "veggie_l" in q or "bbq_ckn_s" in q or "hawaiian_m" in q]
    assert made["What is the name of the type of pizza p4 in the pizzas workbook?"] == "The Veggie Pizza"
    assert generator.own_stages["grid_join:bridge named by the question"] == 3


def test_a_row_cut_at_a_chunk_s_end_and_read_whole_in_the_next_is_one_row() -> None:
    from datagen.grid_joins import read_keyed_tables

    customers = "acme/Customers.xlsx"
    chunks = [
        sheet_table(
            "cus#0",
            customers,
            "Sheet1",
            "Customer_ID | Company Name | City | Postal",
            "C001 | Hanari Carnes | Lyon | 690\nC002 | Around the Horn | Leeds |",
        ),
        Chunk(
            "cus#1",
            customers,
            "C002 | Around the Horn | Leeds | LS1\nC003 | Berglunds | Lulea | 971",
            1,
            40,
            _meta(customers, "Sheet1", "columns: Company Name | City | Postal · Customer_ID"),
        ),
    ]
    (table,) = read_keyed_tables(mine(chunks))
    assert not table.repeated and table.rows["c002"][:2] == ("cus#1", "C002 | Around the Horn | Leeds | LS1")


def test_a_sheet_s_column_groups_name_its_rows_once() -> None:
    from datagen.grid_joins import GridJoins

    book = "acme/Northwind.xlsx"
    chunks = [
        *[c for c in _chunks() if c.doc_id == "acme/Customers.xlsx"],
        # the Orders sheet read as two column groups, each keyed by the order
        Chunk(
            "nw#0",
            book,
            "(Order_ID) | Customer_ID | Freight\nORD-1 | C001 | 5\nORD-2 | C002 | 3\nORD-3 | C003 | 7\n\n"
            "(Order_ID) | Ship Country\nORD-1 | France\nORD-2 | Brazil\nORD-3 | Sweden",
            0,
            40,
            _meta(book, "Orders", "columns: Customer_ID | Freight · Order_ID"),
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question: j.answer for js in generator.pending[2].values() for j in js}
    question = (
        "What is the company name of the customer who placed order ORD-3 in the Orders sheet of the Northwind workbook?"
    )
    assert made[question] == "Berglunds Snabbkop"


def test_an_answer_the_first_row_s_other_column_group_gives_is_not_asked() -> None:
    from datagen.grid_joins import GridJoins

    book = "acme/Northwind.xlsx"
    customers = [c for c in _chunks() if c.doc_id == "acme/Customers.xlsx"]
    chunks = [
        *customers,
        sheet_table(
            "nw#0",
            book,
            "Orders",
            "Order_ID | Customer_ID | Freight",
            "ORD-1 | C001 | 5\nORD-2 | C002 | 3\nORD-3 | C003 | 7",
        ),
        # the same sheet's next column group, in the next chunk: the order ships to its customer's city
        sheet_table("nw#1", book, "Orders", "Order_ID | Ship City", "ORD-1 | Lyon\nORD-2 | Paris\nORD-3 | Lulea", at=1),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question: j.answer for js in generator.pending[2].values() for j in js}
    where = "in the Orders sheet of the Northwind workbook"
    assert made[f"What is the city of the customer who placed order ORD-2 {where}?"] == "Leeds"
    assert (
        f"What is the city of the customer who placed order ORD-1 {where}?" not in made
    )  # Lyon: the order's own ship city


def test_a_total_a_plural_property_and_a_heading_key_are_not_asked_through_a_link() -> None:
    # session 56's reporting read (mended after, not clean): a finance book's categories linked to its totals by
    # type — "What is the total of the type of Allowance …?" sums many rows, no property of Allowance's — and a
    # dashboard's "ACTUAL RESULTS" row linked to its ratings: "What is the customers of the rating of ACTUAL RESULTS …?"
    from datagen.grid_joins import GridJoins

    book, kpi = "me/Finances.xlsx", "me/Kpi.xlsx"
    chunks = [
        sheet_table(
            "f#0",
            book,
            "Categories",
            "Category | Type | Bank",
            "Allowance | Income | Main\nGift | Income | Main\nRent | Expense | Main\nFood | Expense | Card\nLoan | Transfer | Main",
        ),
        sheet_table(
            "f#1",
            book,
            "Totals",
            "Type | Total | Owner",
            "Income | 5,655.50 | Ann Lee\nExpense | 4,810.00 | Bo Chen\nTransfer | 120.00 | Cy Park",
            at=1,
        ),
        sheet_table(
            "k#0",
            kpi,
            "Dashboard",
            "Block | Rating | Notes",
            "ACTUAL RESULTS | Good | a\nTARGET RESULTS | Fair | b\nPLAN VALUES | Poor | c",
        ),
        sheet_table(
            "k#1",
            kpi,
            "Ratings",
            "Rating | Customers | Region",
            "Good | 20 | North\nFair | 12 | South\nPoor | 5 | East",
            at=1,
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question for jobs in generator.pending.values() for js in jobs.values() for j in js}
    # the owner of a type is a property of it, and is asked; its total and a heading's row are not
    assert (
        "What is the owner of the type of the Allowance category in the Categories sheet of the Finances workbook?"
        in made
    ), made
    assert not [q for q in made if "total" in q or "customers" in q or "ACTUAL" in q], made
    assert generator.own_stages["grid_join:an aggregate"] >= 1


def test_a_block_named_column_a_long_property_a_day_and_a_months_summary_are_not_joined() -> None:
    # session 56's third unseen folder (mended after, not clean): "What is the supplier of the quantity on hand by store
    # product of Foldable Tote Bag …?", "the stock value by store ($) store c of the product name of product P015",
    # "What is the expense of the month of 2025-06-12 …?" (a month's total)
    from datagen.grid_joins import GridJoins

    inv, budget = "shop/Inventory.xlsx", "home/Budget.xlsx"
    chunks = [
        sheet_table(
            "p#0",
            inv,
            "Products",
            "ProductID | Product Name | Supplier",
            "P001 | Thermal Mug | NovaBrew\nP002 | Tote Bag | UrbanCraft\nP003 | Hand Cream | PureGlow",
        ),
        sheet_table(
            "p#1",
            inv,
            "Reports",
            "Quantity on hand by store Product Name | Quantity on hand by store ProductID | Stock value by store ($) Store C",
            "Thermal Mug | P001 | 342.00\nTote Bag | P002 | 120.00\nHand Cream | P003 | 136.00",
            at=1,
        ),
        sheet_table(
            "b#0",
            budget,
            "Log",
            "Date | Month | Amount",
            "2025-06-12 | June | 5000\n2025-04-02 | April | 300\n2025-05-09 | May | 800",
        ),
        sheet_table(
            "b#1",
            budget,
            "Summary",
            "Month | Expense | Income",
            "April | 62000 | 160000\nMay | 52000 | 160000\nJune | 64000 | 160000",
            at=1,
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question for jobs in generator.pending.values() for js in jobs.values() for j in js}
    assert not made, made
    assert generator.own_stages["grid_join:column named as no one says it"] >= 1
    assert generator.own_stages["grid_join:a period's summary"] >= 1


def _shop() -> list[Chunk]:
    """A shop's folder: order lines → orders → customers, orders → products by name, an order's approver."""
    lines, orders, customers, products = (
        "shop/OrderDetails.xlsx",
        "shop/Orders.xlsx",
        "shop/Customers.xlsx",
        "shop/Products.xlsx",
    )
    return [
        sheet_table(
            "od#0",
            lines,
            "Sheet1",
            "OrderDetailID | OrderID | Quantity",
            "51 | 10248 | 12\n52 | 10249 | 10\n53 | 10250 | 5",
        ),
        sheet_table(
            "o#0",
            orders,
            "Sheet1",
            "OrderID | CustomerID | Product_Name | Approved",
            "10248 | C1 | Chai | Ana Ruiz\n10249 | C2 | Chang | Bo Chen\n10250 | C3 | Tofu | Cy Park",
        ),
        sheet_table(
            "c#0",
            customers,
            "Sheet1",
            "CustomerID | CompanyName | Country",
            "C1 | Vins et alcools | France\nC2 | Toms Spezialitaten | Germany\nC3 | Hanari Carnes | Brazil",
        ),
        sheet_table(
            "p#0",
            products,
            "Sheet1",
            "Product | Unit Price | Supplier",
            "Chai | 18.00 | Exotic Liquids\nChang | 19.00 | Tokyo Traders\nTofu | 23.25 | Mayumi's",
        ),
        sheet_table(
            "s#0",
            "shop/Staff.xlsx",
            "Sheet1",
            "Name | Department | Office",
            "Ana Ruiz | Finance | Lyon\nBo Chen | Legal | Leeds\nCy Park | Sales | Oslo",
        ),
    ]


def test_each_hop_is_said_by_the_thing_it_reaches_and_a_header_that_names_no_thing_links_nothing() -> None:
    # the lead's read of session 56 (garbled): "the shipper of order detail 53" skips the order the detail is a line
    # of; "the product name of order 10249" says a header, not a thing; "the department of the approved of order
    # 10248" asks through a participle
    from datagen.grid_joins import GridJoins

    generator = GridJoins(NoProseGenerator(), mine(_shop()))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    assert (
        made[
            "What is the country of the customer who placed the order in order detail 53 in the OrderDetails workbook?"
        ]
        == "Brazil"
    ), sorted(made)
    assert made["What is the company name of the customer who placed order 10249 in the Orders workbook?"] == (
        "Toms Spezialitaten"
    )
    assert made["What is the unit price of the product in order 10250 in the Orders workbook?"] == "23.25"
    assert made[
        "What is the supplier of the product in the order in order detail 51 in the OrderDetails workbook?"
    ] == ("Exotic Liquids")
    assert not [q for q in made if "approved" in q or "Finance" in made[q]], made
    assert generator.own_stages["grid_join:column named as no one says it"] >= 1


def test_a_database_s_abbreviated_key_column_is_said_as_its_thing() -> None:
    from datagen.grid_join_words import thing_of

    said = {
        c: thing_of(c)
        for c in (
            "CustomerID",
            "Product_Name",
            "Mgr",
            "ReportsTo",
            "ShipVia",
            "Assigned To",
            "Approved",
            "Quantity on hand by store ProductID",
        )
    }
    assert said == {
        "CustomerID": "customer",
        "Product_Name": "product",
        "Mgr": "manager",
        "ReportsTo": "manager",
        "ShipVia": "shipper",
        "Assigned To": "assignee",
        "Approved": None,
        "Quantity on hand by store ProductID": None,
    }


def test_a_whole_number_key_written_with_decimals_is_the_same_key() -> None:
    # a tuning folder's near link (benchmarks/datagen_join_links.py): an orders sheet a tool wrote with decimals
    # ("704.00") names the products sheet's rows 704, 392, 646; a code's zeros ("007" / "7") stay two keys
    from datagen.grid_joins import GridJoins

    book = "me/product sales.xlsx"
    chunks = [
        sheet_table(
            "o#0",
            book,
            "orders",
            "order_id | product_id | quantity",
            "1 | 704.00 | 3\n2 | 392.00 | 1\n3 | 646.00 | 2\n4 | 704.00 | 5",
        ),
        sheet_table(
            "p#0",
            book,
            "products",
            "product_id | product_name | price",
            "704 | Desk Lamp | 12.50\n392 | Oak Shelf | 80.00\n646 | Wall Clock | 19.90",
            at=1,
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    assert made["What is the price of the product in order 2 in the orders sheet of the product sales workbook?"] == (
        "80.00"
    ), made
    from datagen.grid_joins import _key

    assert (_key("704.00"), _key("704"), _key("007"), _key("7"), _key("0.50")) == ("704", "704", "007", "7", "0.50")


def test_a_file_s_name_is_no_property_a_join_asks() -> None:
    # tuning t2 (session 57): "What is the photo of the employee of order 10289 …?" → "EmpID7.pic"
    from datagen.grid_joins import GridJoins

    orders, staff = "shop/Orders.xlsx", "shop/Employees.xlsx"
    chunks = [
        sheet_table(
            "o#0",
            orders,
            "Sheet1",
            "OrderID | EmployeeID | Freight",
            "10248 | 5 | 32.38\n10249 | 6 | 11.61\n10250 | 4 | 65.83",
        ),
        sheet_table(
            "e#0",
            staff,
            "Sheet1",
            "EmployeeID | LastName | Photo",
            "4 | Peacock | EmpID4.pic\n5 | Buchanan | EmpID5.pic\n6 | Suyama | EmpID6.pic",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    assert made["What is the last name of the employee of order 10249 in the Orders workbook?"] == "Suyama", made
    assert not [q for q in made if "photo" in q], made


def _sales() -> list[Chunk]:
    """Tuning t1 (session 57): a Sales1 workbook keyed by sale, its customers and products; products keyed by a
    subcategory, keyed by a category."""
    sales, customers, products, subs, cats = (
        "me/Sales1.xlsx",
        "me/Customers.xlsx",
        "me/Products.xlsx",
        "me/Product_Subcategories.xlsx",
        "me/Product_Categories.xlsx",
    )
    return [
        sheet_table(
            "s#0",
            sales,
            "Sheet1",
            "Sale ID | Customer ID | Product ID",
            "75 | C2 | 214\n126 | C43 | 478\n128 | C39 | 479",
        ),
        sheet_table(
            "c#0",
            customers,
            "Sheet1",
            "Customer ID | Customer Name | Segment",
            "C2 | Ada Gray | Retail\nC43 | Bo Lund | Online\nC39 | Cy Moss | Retail",
        ),
        sheet_table(
            "p#0",
            products,
            "Sheet1",
            "ProductKey | ProductSubcategoryKey | Launch Date",
            "214 | 31 | 45894\n478 | 32 | 45895\n479 | 33 | 45896",
        ),
        sheet_table(
            "sub#0",
            subs,
            "Sheet1",
            "ProductSubcategoryKey | SubcategoryName | ProductCategoryKey",
            "31 | Helmets | 4\n32 | Bottles | 5\n33 | Gloves | 3",
        ),
        sheet_table(
            "cat#0", cats, "Sheet1", "ProductCategoryKey | CategoryName", "3 | Clothing\n4 | Accessories\n5 | Bikes"
        ),
    ]


def _sales_questions() -> dict[str, str]:
    from datagen.grid_joins import GridJoins

    generator = GridJoins(NoProseGenerator(), mine(_sales()))
    return {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }


def test_a_customer_places_an_order_not_a_sale() -> None:
    made = _sales_questions()
    assert made["What is the segment of the customer of sale 126 in the Sales1 workbook?"] == "Online", sorted(made)
    assert not [q for q in made if "placed sale" in q]


def test_a_chain_s_thing_is_not_said_twice() -> None:
    made = _sales_questions()
    question = "What is the name of the category of the subcategory of product 478 in the Products workbook?"
    assert made[question] == "Bikes", sorted(made)


def test_a_date_s_serial_number_is_not_asked() -> None:
    made = _sales_questions()
    assert not [q for q in made if "launch date" in q], sorted(made)


def test_a_plural_key_header_is_said_as_the_one_thing_a_row_names() -> None:
    from datagen.grid_join_words import thing_of

    said = {c: thing_of(c) for c in ("Products", "Categories", "Sales ID", "Status", "Business")}
    assert said == {
        "Products": "product",
        "Categories": "category",
        "Sales ID": "sale",
        "Status": "status",
        "Business": "business",
    }


def test_a_hop_the_first_row_skips_is_not_asked() -> None:
    # tuning t2 (session 57): "the college of the major of student R12345" — the student's row names the college
    # itself (collegeCode 123), so the major's row is read for nothing; the major's title is still asked
    from datagen.grid_joins import GridJoins

    students, majors, colleges = "uni/Students.xlsx", "uni/Majors.xlsx", "uni/Colleges.xlsx"
    chunks = [
        sheet_table(
            "s#0",
            students,
            "Sheet1",
            "studentID | collegeCode | majorCode",
            "R12345 | 123 | 1000\nB01999 | 456 | 8000\nN10170 | 789 | 2100",
        ),
        sheet_table(
            "m#0",
            majors,
            "Sheet1",
            "majorCode | majorTitle | collegeCode",
            "1000 | Computer Science | 123\n8000 | Civil Engineering | 456\n2100 | Nursing | 789",
        ),
        sheet_table(
            "c#0",
            colleges,
            "Sheet1",
            "collegeCode | collegeName",
            "123 | Farmingdale State College\n456 | University at Buffalo\n789 | Stony Brook",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    assert made["What is the title of the major of student R12345 in the Students workbook?"] == "Computer Science"
    assert made["What is the name of the college of student R12345 in the Students workbook?"] == (
        "Farmingdale State College"
    )
    assert not [q for q in made if "college of the major" in q], sorted(made)
    assert generator.own_stages["grid_join:a hop the first rows skip"] == 3


def test_a_pivot_s_grouping_header_names_no_thing() -> None:
    # session 56's unseen folder 5: a report's block named over its columns ("… by store ProductID"); two words
    # ("By Region", "Per Store") had still passed as a thing
    from datagen.grid_join_words import thing_of

    assert [thing_of(c) for c in ("By Region", "Per Store", "Region", "Store ID")] == [None, None, "region", "store"]


def test_a_header_said_as_its_thing_names_the_table_it_links_to() -> None:
    # Northwind's Orders.ShipVia names a row of Shippers, an HR sheet's Dept a row of Departments: the header's own
    # words ("ship via", "dept") share none with the table's, the thing they name does
    from datagen.grid_joins import GridJoins

    orders, shippers, staff, depts = "co/Orders.xlsx", "co/Shippers.xlsx", "co/Staff.xlsx", "co/Departments.xlsx"
    chunks = [
        sheet_table(
            "o#0",
            orders,
            "Sheet1",
            "OrderID | ShipVia | Freight",
            "10248 | 3 | 32.38\n10249 | 1 | 11.61\n10250 | 2 | 65.83",
        ),
        sheet_table(
            "sh#0",
            shippers,
            "Sheet1",
            "ShipperID | CompanyName",
            "1 | Speedy Express\n2 | United Package\n3 | Federal Shipping",
        ),
        sheet_table("st#0", staff, "Sheet1", "EmpNo | Dept | Grade", "E1 | D10 | 4\nE2 | D20 | 5\nE3 | D30 | 3"),
        sheet_table(
            "d#0",
            depts,
            "Sheet1",
            "Department ID | Department Name | Floor",
            "D10 | Finance | 2\nD20 | Legal | 3\nD30 | Sales | 1",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    assert made["What is the company name of the shipper of order 10248 in the Orders workbook?"] == (
        "Federal Shipping"
    ), sorted(made)
    assert made["What is the name of the department of employee E1 in the Staff workbook?"] == "Finance", sorted(made)


def test_a_sheet_named_by_a_machine_is_not_said() -> None:
    # session 57's held-out read: "the status of the supplier of product 9138 in the 7bb8e241f2691456f4788efbe4823f5
    # sheet of the products workbook" (8 of 64 joins)
    from datagen.grid_joins import GridJoins

    products, suppliers = "shop/products.xlsx", "shop/Suppliers.xlsx"
    chunks = [
        sheet_table(
            "p#0",
            products,
            "7bb8e241f2691456f4788efbe4823f5",
            "product_id | supplier_id | stock",
            "9138 | 13 | 1680\n3739 | 81 | 2216\n9454 | 46 | 1284",
        ),
        sheet_table(
            "s#0",
            suppliers,
            "Sheet1",
            "supplier_id | supplier_name | city",
            "13 | Godrej Distributors | Mumbai\n81 | Bajaj Traders | Delhi\n46 | Royal India Co | Pune",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {
        generator._candidate(j).question: j.answer for v in generator.pending.values() for js in v.values() for j in js
    }
    assert made["What is the city of the supplier of product 9138 in the products workbook?"] == "Mumbai", sorted(made)


def test_a_float_s_stored_noise_is_not_an_answer() -> None:
    # session 57's held-out read: "What is the price of the product in order detail 441 …?" → "49.29999924"
    from datagen.grid_joins import KeyedTable, _refusal

    products = KeyedTable("shop/Products.xlsx", "the Products workbook", "shop", "ProductID", ("Price",))
    said = {v: _refusal("Price", v, products) for v in ("49.29999924", "9.199999809", "21.05", "1.5000001", "100000")}
    noise = "grid_join:value a float's noise"
    assert said == {"49.29999924": noise, "9.199999809": noise, "21.05": "", "1.5000001": noise, "100000": ""}


def test_an_order_s_item_is_a_line_a_catalogue_s_item_a_thing() -> None:
    from datagen.grid_join_words import hop_joint

    said = {
        (o, i): hop_joint(o, i) for o, i in (("product", "order item"), ("supplier", "item"), ("order", "order detail"))
    }
    assert said == {("product", "order item"): "in", ("supplier", "item"): "of", ("order", "order detail"): "in"}


def test_a_key_a_machine_wrote_is_said_by_no_question() -> None:
    # session 57's reporting read: "What is the name of the department of the employee of attendance
    # 4d3e2b9d-152c-47b1-8ea3-d361bd9b97e2 in the Attendance workbook?" — no one says a UUID; employee 36 still is
    from datagen.grid_joins import GridJoins

    attendance, employees, departments = "hr/Attendance.xlsx", "hr/Employees.xlsx", "hr/Departments.xlsx"
    chunks = [
        sheet_table(
            "att#0",
            attendance,
            "Sheet1",
            "AttendanceID | EmployeeID | Status",
            "4d3e2b9d-152c-47b1-8ea3-d361bd9b97e2 | 36 | Absent\nc6b921c0-3015-482b-8ab8-1f6a80b53431 | 78 | Leave\n9a1f0c2e-77b4-4c1d-9e0a-1b2c3d4e5f60 | 92 | Present",
        ),
        sheet_table(
            "emp#0",
            employees,
            "Sheet1",
            "EmployeeID | FirstName | DepartmentID",
            "36 | Allison | 1\n78 | Justin | 2\n92 | Steven | 3",
        ),
        sheet_table(
            "dep#0",
            departments,
            "Sheet1",
            "DepartmentID | DepartmentName",
            "1 | Human Resources\n2 | Finance\n3 | Marketing",
        ),
    ]
    generator = GridJoins(NoProseGenerator(), mine(chunks))
    made = {generator._candidate(j).question for js in generator.pending.values() for jss in js.values() for j in jss}
    assert not [q for q in made if "attendance" in q.lower()], made
    assert "What is the name of the department of employee 36 in the Employees workbook?" in made, made
