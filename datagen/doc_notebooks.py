"""What a Jupyter notebook's prose states verifiably (issue 36: tutorial notebooks yield questions by default).

A tutorial notebook (`corpus_tools.notebook_reader`) holds none of the shapes the documentation readers take (an
option, a default, a version note, a signature): it teaches in sentences around code. Three of its shapes are
stated so that a passage verifies the answer and the question names what it is about:

- a term its prose defines, "t-SNE is a nonlinear embedding algorithm that is …" → "What is t-SNE in
  Scikit-Learn?" → "a nonlinear embedding algorithm" (`TERM`): the defining sentence opens with the term, then
  "is a(n)" and the genus; the answer is the genus up to its first clause (a relative clause, a comma, a
  parenthesis), two content words at least;
- what a named function does, said in the sentence that opens with it, "The pd.merge function implements a
  number of types of joins: …" → "Which Pandas function implements a number of types of joins?" → "pd.merge"
  (`FUNCTION`): the function is written through its library's alias (`np.`, `pd.`, `plt.`, …), so the question
  names the library;
- the shape a code cell printed for a named array, `digits.data.shape` → "Output: (1797, 64)" → "In the notebook
  “In Depth: Principal Component Analysis”, what is the shape of digits.data?" (`SHAPE`): only a data set's, by
  its name ("X_train", "positive_patches", "digits.data") or by the loader that assigned it ("planets =
  sns.load_dataset('planets')"); a placeholder (`X`, `data`, `df`) or a step of the computation ("dist_sq") is
  refused.

Session 48 (`--mix nb_printed`, `nb_defaults`, `nb_wrapped`, each on by default; each False in `notebook_facts` and
`read_facts`, so their callers read session 47's facts exactly unless they ask):

- a labelled result a cell printed, `print('test_acc:', test_acc)` → "Output: test_acc: 0.9777" → "In the notebook
  “A first look at a neural network”, what is the test accuracy?" → "0.9777" (`PRINTED`): the value is the number
  (a unit kept) on the output line that repeats the print's label; a count is asked "how many" ("total training cat
  images: 1000"); a print in a loop, a placeholder's or a seed's label ("x =", "Random seed:"), a cleared output, an
  error, a kernel other than Python's or prose not in English give nothing; and a data set's printed length,
  "len(train_data)" → "Output: 8982" (`LENGTH`, the same data set names as `SHAPE`);
- a named argument's default the prose states, "the how keyword, which defaults to "inner"" → "In the notebook
  “Combining Datasets: merge and join”, what does the how keyword default to?" → "inner" (`DEFAULT`); a "By
  default, …" sentence names no argument and is left;
- a sentence the author wrapped by hand over several prose lines (a book's text) is read as one sentence.

The question names its notebook's subject: the library its title names where the defining sentence names it too
("What is a ufunc in NumPy?", `title_library`); a name is its own subject ("What is OpenCL?", kept only where the
folder defines it once, `factbase.unique_in_corpus`); else the notebook by its title ("In the notebook “In Depth:
Manifold Learning”, what is t-SNE?"). The library the code calls most was tried first and named the wrong one for
a concept ("What is principal component analysis in Matplotlib?": the notebook plots it), so it is not read. A
definition whose term is a pronoun or a phrase of the argument ("This is …", "The result is …", "If a Series is
…") is no definition and is never read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from corpus_tools.notebook_reader import OUTPUT_LABEL
from datagen.factbase import Fact
from datagen.types import TruthType

TERM = "doc:nb_term"
FUNCTION = "doc:nb_function"
SHAPE = "doc:nb_shape"
PRINTED = "doc:nb_printed"
DEFAULT = "doc:nb_default"
LENGTH = "doc:nb_length"

# alias or module a notebook's code writes → the library's name as its own documentation writes it
LIBRARIES: Mapping[str, str] = {
    "np": "NumPy", "numpy": "NumPy", "pd": "Pandas", "pandas": "Pandas", "plt": "Matplotlib",
    "matplotlib": "Matplotlib", "mpl": "Matplotlib", "sns": "Seaborn", "seaborn": "Seaborn", "sklearn": "Scikit-Learn",
    "scipy": "SciPy", "sp": "SciPy", "sympy": "SymPy", "sym": "SymPy", "torch": "PyTorch", "fastai": "fastai",
    "tf": "TensorFlow", "tensorflow": "TensorFlow", "keras": "Keras", "numba": "Numba", "cython": "Cython",
}
# how a title writes a library ("Introducing Scikit-Learn", "Computation on NumPy Arrays", "Visualization with Seaborn")
_TITLE_NAMES = re.compile(r"\b(NumPy|Pandas|Matplotlib|Seaborn|Scikit-Learn|SciPy|SymPy|PyTorch|fastai|TensorFlow|Keras|"
                          r"Numba|Cython|IPython)\b", re.IGNORECASE)
_CANONICAL = {n.lower(): n for n in (*LIBRARIES.values(), "IPython")}

# "t-SNE is a nonlinear embedding algorithm …", "A ufunc is a …", "Broadcasting is simply a set of rules …"
_DEFINITION = re.compile(
    r"^(?:(?:A|An|The)\s+)?(?P<t>[A-Za-z][\w\-]*(?:\s[A-Za-z][\w\-]*){0,2})\s+(?:is|are)\s+(?:simply\s+|essentially\s+|"
    r"basically\s+)?(?P<a>(?:a|an)\s+(?:[^.!?]|\.(?=\w))+?)(?P<end>[.!?:](?!\w)|$)")
# a second term defined in the same sentence, after the first one's genus: ", and a blue square is a(n) …"
_PAIRED = re.compile(r",\s+(?:and|while|whereas)\s+(?:(?:a|an|the)\s+)?[A-Za-z][\w\-]*(?:\s[A-Za-z][\w\-]*){0,2}\s+"
                     r"(?:is|are)\s+(?:a|an|the)\s")
# the genus ends at its first clause: a relative clause, a comma, a parenthesis, a colon, a dash
_GENUS_END = re.compile(r"\s*(?:,|;|:|\(|—|–| - |\s(?:that|which|who|whose|where|when|whereby|because|but|so)\s)")
# words that open an argument's phrase, not a term ("This is a …", "The result is a …", "One way is a …")
_NOT_TERMS = frozenset("""
this these that those it they there here one each every our my your his her their its such which what another other
all both some any now so result results following key idea goal main first second next last problem reason answer
point difference advantage trick way only output code above below example figure plot model approach method function
data dataset value values we you i he she case thing things step option reason part rest latter former same itself
if when while since because although though as where whether once unless until for in on with without to by at
after before then also however thus hence note notice recall remember just even
""".split())
# a genus that places its term beside another, or judges it, says nothing of what it is ("A pivot table is a
# similar operation", "Branching is a good development strategy")
_RELATIVE = frozenset("similar same other another third second first related following next good great simple "
                      "useful better best nice easy quick common special different bit lot little few couple number".split())
# a name of code a learner asks nothing about: the tutorial's placeholders
_GENERIC = frozenset("x y z a b c d i j k n m df data result res out output arr array values tmp temp m2 x2 y2 "
                     "xx yy grid ax fig img im".split())
# one sentence of prose: a capital, words, closing punctuation (a code line rarely reads so; outputs are blanked first)
_SENTENCE = re.compile(r"(?:(?<=^)|(?<=[.!?]\s))(?P<s>[A-Z][^\n]*?[.!?])(?=\s|$)", re.MULTILINE)
# "The pd.merge function implements …", "np.concatenate joins …", "As you can see, the plt.legend function keeps
# track of …" (a short opening phrase, then the function), "plt.GridSpec does not create …" (refused below)
_FUNCTION = re.compile(
    r"^(?:[A-Z][^,.;:!?]{0,40},\s+)?(?:[Tt]he\s+)?(?P<f>(?P<lib>" + "|".join(sorted(LIBRARIES, key=len, reverse=True)) + r")\.[A-Za-z_][\w.]*?)(?:\(\))?"
    r"(?:\s+(?:function|method|routine|command))?\s+(?P<v>[a-z]+s)\s+(?P<r>[^.!?]+?)(?P<end>[.!?:])")
_NOT_VERBS = frozenset("is has does was needs lets allows gives looks seems means takes".split())
_SHAPE_LINE = re.compile(r"^(?P<e>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\.shape\s*$")
_LENGTH_LINE = re.compile(r"^len\((?P<e>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\)\s*$")  # "len(train_data)" → "Output: 8982"
_LENGTH_OUT = re.compile(r"^Output:\s*(?P<v>\d+)\s*$")
# a name that ends in what a data set holds ("X_train", "positive_patches", "digits.data"; not "data_new" nor
# "patches_hog", a step made from one: read 2 of 30 unnatural), or one a loader assigned
# ("planets = sns.load_dataset('planets')", "faces = fetch_lfw_people(…)", "recipes = pd.read_json(…)")
_DATA_NAME = re.compile(r"(?i:(?:^|_)(?:data|train|test|images|samples|features|target|labels|patches)$|"
                        r"\.(?:data|images|target)$)|^[Xy]_[A-Za-z]\w*$")
# X_iris, y_iris: Scikit-Learn's features / target. Not a model's output nor one made-up sample ("y_pred", "y_hat_test",
# "X_new": session 48's reporting read, "what is the length of y_pred?"). A loader of data, not of a file's text:
# "f.read()", "readlines()" give lines ("what is the length of text_lines?", the same read)
_NOT_DATA = re.compile(r"(?i)(?:^|_)(?:preds?|predictions?|predicted|hat|probs?|probas?|scores?|new)(?:_|$)")
_LOADER = r"[\w.]*?(?:load\w*|fetch\w*|read_\w+)\("
_SHAPE_OUT = re.compile(r"^Output:\s*(?P<v>\(\d[\d, ]*\))\s*$")
# a longer genus (after its first clause is cut) or function phrase is a paragraph, not a short answer or question:
# refused and counted (`nb_genus_shape`, `nb_function_shape`); 12 cut the fixture's 13-word stride table, so 14
MAX_GENUS_WORDS = 14
MAX_FUNCTION_WORDS = 16
# a code line printing a labelled value: print('test_acc:', test_acc), print("Mean height:", heights.mean()),
# print(f"Mean height: {m}"), print("Mean height: {}".format(m)), print('Corpus length: %d' % n)
_PRINT_LABEL = re.compile(r"""^print\(\s*f?(?P<q>['"])(?P<l>[A-Za-z][A-Za-z0-9_ \-]*?)\s*[:=]?\s*"""
                          r"""(?:\{[^}]*\}|%[\w.]+)?\s*(?P=q)""")
# what the cell printed under that label: the label, a colon or equals sign or spaces, one number
_PRINTED_LINE = re.compile(r"^(?:Output:\s*)?(?P<l>[A-Za-z][A-Za-z0-9_ \-]*?)\s*[:=]?\s+(?P<v>-?\d[\d,]*(?:\.\d+)?"
                           r"(?:[eE][-+]?\d+)?(?:\s?(?:%|[A-Za-z°µ/²³]{1,6}))?)\s*$")  # a unit kept: "12.5 m", "38%"
# a label's abbreviations as a learner writes them ("test_acc" → "test accuracy", "val_mae" → "validation mean absolute
# error")
# a label naming only a statistic names no quantity: "Standard deviation: 6.98" of what? (read unnatural on tuning:
# the heights'); "Mean height" names it
_STATISTICS = frozenset("standard deviation mean median average variance min max minimum maximum sum count std".split())
_ERROR_LABEL = "Error:"  # how corpus_tools.notebook_reader labels a cell's exception
_LABEL_WORDS = {"acc": "accuracy", "val": "validation", "mae": "mean absolute error", "mse": "mean squared error",
                "rmse": "root mean squared error", "std": "standard deviation", "avg": "average", "num": "number of",
                "err": "error"}
# a label naming a step of the program or a placeholder, not a result a learner asks ("x // 2 =", "dtype:", "shape:",
# "value =", "iteration", "epoch", "step"), or a value a seed or the clock sets ("seed", "time", "elapsed")
_NOT_RESULTS = frozenset("""
x y z a b c i j k n x2 y2 dtype shape ndim size itemsize nbytes value values result results output out res type
iteration iter epoch epochs step steps batch seed random time elapsed seconds took done start end index idx id
""".split())


# "the how keyword, which defaults to "inner"", "the margins_name keyword; it defaults to "All"", "the n_init parameter,
# which defaults to 10": a named argument's default, stated with the name (a "by default" sentence names no argument
# and needs its verb inflected to be asked: left, session 47)
_DEFAULT = re.compile(r"\b[Tt]he\s+(?P<n>[A-Za-z_]\w*)\s+(?P<k>keyword|parameter|argument|option)(?:\s+argument)?"
                      r"(?:\s*,\s*which|\s*;\s*it|\s+which)\s+(?:\w+\s+)?defaults\s+to\s+"
                      r"(?P<v>\"[^\"]{1,30}\"|'[^']{1,30}'|[\w.\-]+)(?=[\s.,;:)]|$)")
# a prose line a notebook's author wrapped by hand (a book's text: "…, it is possible that your model could end up⏎
# merely memorizing …"): long, ends inside a sentence, and the next line goes on in lower case
_WRAPPED = re.compile(r"^(?![ \t#>|-])(?=(?:\S+\s+){7})[^\n]{60,}[A-Za-z,;]$")
_GOES_ON = re.compile(r"^[a-z][a-z'\-]*(?:[ ,;]|\.?$)")  # "merely memorizing …", not "model.add(…)"


def is_notebook(doc_id: str, metadata: Mapping[str, Any] | None) -> bool:
    """Whether a document was read from a Jupyter notebook (its file's name ends in .ipynb)."""
    name = str((metadata or {}).get("file_name") or (metadata or {}).get("source") or doc_id)
    return name.lower().endswith(".ipynb")


def title_library(title: str) -> str:
    """The one library a notebook's title names ("Computation on NumPy Arrays" → "NumPy"), or ""."""
    named = {_CANONICAL[m.group(1).lower()] for m in _TITLE_NAMES.finditer(title)}
    return named.pop() if len(named) == 1 else ""


def notebook_facts(doc_id: str, title: str, chunks: Sequence[Any], skipped: Counter, *,
                   unique_title: bool = True, printed: bool = False, defaults: bool = False,
                   wrapped: bool = False) -> list[Fact]:
    """Every fact of one notebook's passages (see the module docstring); refusals counted in `skipped`.

    `unique_title` False: another notebook of the folder has the same title (a book's every chapter titled by the
    book), so "In the notebook “T”, …" would name none of them: questions that need the title are refused (the
    library a title names still names a term). `printed` True also reads labelled printed results (`PRINTED`,
    `--mix nb_printed`); `defaults` True a named argument's stated default (`DEFAULT`, `--mix nb_defaults`);
    `wrapped` True reads a sentence whose prose lines the author wrapped by hand as one (`--mix nb_wrapped`)."""
    library = title_library(title)
    text = "\n".join(c.text for c in chunks)
    out: list[Fact] = []
    defined: set[str] = set()
    english: bool | None = None
    for at, chunk in enumerate(chunks):
        prose = _without_outputs(chunk.text)
        if wrapped:
            prose = _unwrapped(prose)
        if defaults:
            # line by line: "… using the how keyword, which defaults to "inner":" ends in a colon, no sentence
            for line in prose.split("\n"):
                out.extend(_default(chunk, line.strip(), title, skipped, unique_title))
        for m in _SENTENCE.finditer(prose):
            sentence = m.group("s")
            for fact in _term(chunk, sentence, library, title, text, skipped, unique_title):
                # a notebook that defines a term twice ("F2PY is a part of NumPy", then "F2PY is a program that …")
                # gives its first definition, where the term is introduced; the later one elaborates
                if fact.subject.lower() in defined:
                    skipped["nb_term_defined_again"] += 1
                    continue
                defined.add(fact.subject.lower())
                out.append(fact)
            out.extend(_function(chunk, sentence, skipped))
        out.extend(_shapes(chunk, title, text, skipped, unique_title))
        if printed and english is None:
            english = _english(chunks)
            if not english:
                skipped["nb_printed_language"] += 1  # once a notebook
        if printed:
            out.extend(_shapes(chunk, title, text, skipped, unique_title, length=True))
        if printed and english:
            out.extend(_printed(chunk, title, skipped, unique_title, chunks[at + 1] if at + 1 < len(chunks) else None))
    return out


def _term(chunk: Any, sentence: str, library: str, title: str, text: str, skipped: Counter,
          unique_title: bool = True) -> list[Fact]:
    m = _DEFINITION.match(sentence)
    if not m:
        return []
    if _PAIRED.search(m.group("a")):
        # "A red square is an assignment to cluster 1, and a blue square is an assignment to cluster 0.": a figure's
        # legend, whose terms are marks on a plot, not what a learner asks the notebook about
        skipped["nb_term_paired"] += 1
        return []
    term = m.group("t")
    words = term.lower().split()
    if sentence.startswith("The ") and not term[0].isupper():
        skipped["nb_not_a_term"] += 1  # "The hourly traffic is a …": a thing of the notebook, not a term
        return []
    if (words[0] in _NOT_TERMS or words[-1] in _NOT_TERMS or (len(words) == 1 and words[0] in _GENERIC)
            or (len(words) > 1 and words[0].endswith("ing"))):
        skipped["nb_not_a_term"] += 1  # "If a Series is …", "The colorbar itself is …", "Calculating … is a …"
        return []
    rest = text.replace(sentence, " ")  # the whole notebook: a passage may hold only the opening sentence
    lower = term[0].lower() + term[1:]
    # a name: written capitalised mid-sentence elsewhere, or with a capital past its first letter ("OpenCL", "F2PY")
    proper = term[0].isupper() and (lower == term or any(c.isupper() for c in term[1:])
                                    or bool(re.search(rf"[a-z,] {re.escape(term)}(?![\w-])", rest)))
    if term[0].isupper() and not proper and re.search(rf"[a-z,] {re.escape(lower)}(?![\w-])", rest):
        term = lower  # "Principal component analysis is …" opens a sentence; the prose writes "principal component analysis"
    proper = proper or term[0].isupper() and not sentence.startswith(term)  # "The Python Standard Library", "A Pandas Series"
    genus = _GENUS_END.split(m.group("a"), maxsplit=1)[0].strip()
    content = [w for w in genus.split()[1:] if len(w) > 2]
    if len(content) < 2 or len(genus.split()) > MAX_GENUS_WORDS:
        skipped["nb_genus_shape"] += 1
        return []
    if genus.split()[1].lower() in _RELATIVE:
        skipped["nb_genus_relative"] += 1
        return []
    opening = sentence.split()[0]
    if opening in ("A", "An"):
        term = ("an " if term[0].lower() in "aeiou" else "a ") + term  # "A ufunc is …" → "What is a ufunc …?"
    elif opening == "The":
        term = "the " + term  # "The GroupBy object is …" → "What is the GroupBy object …?"
    be = "are" if re.search(r"\sare\s+(?:\w+ly\s+)?$", sentence[:m.start("a")]) else "is"  # "Random forests are …"
    if proper or (library and library.lower() in term.lower()):
        # a name is its own subject ("What is OpenCL?", "What is a Pandas Series?"): one definition in the folder,
        # else `unique_in_corpus` refuses it as disputed
        ask = f"What {be} {{s}}?"
    elif library and re.search(rf"\b{re.escape(library)}\b", sentence, re.IGNORECASE):
        # "What is a ufunc in NumPy?" where the definition itself says it is NumPy's; a term the sentence does not
        # tie to the library is the notebook's ("What is a basic table in Scikit-Learn?" read unnatural)
        ask = f"What {be} {{s}} in {library}?"
    elif title.strip() and unique_title:
        ask = f"In the notebook “{' '.join(title.split())}”, what {be} {{s}}?"
    else:
        skipped["nb_title_shared" if title.strip() else "nb_no_subject"] += 1
        return []
    return [Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=sentence, subject=term, about_doc=False,
                 relation=TERM, answer=genus, kind=TruthType.ENTITY.value, ask=ask)]


def _function(chunk: Any, sentence: str, skipped: Counter) -> list[Fact]:
    m = _FUNCTION.match(sentence)
    if not m:
        return []
    verb, rest = m.group("v"), m.group("r").strip()
    if verb in _NOT_VERBS or verb.endswith("ss"):
        skipped["nb_function_verb"] += 1
        return []
    rest = _GENUS_END.split(rest, maxsplit=1)[0].strip()  # "keeps track of the line style and color, and matches these …"
    if len(rest.split()) < 2 or len(rest.split()) > MAX_FUNCTION_WORDS or re.search(r"[(){}\[\]=`]", rest):
        skipped["nb_function_shape"] += 1
        return []
    if rest.startswith("that ") or re.search(r"\b(?:this|these|it|them|here|above|below)\b", rest, re.IGNORECASE):
        # "… joins them", "recognizes that each DataFrame has an employee column": the example's, not the function's
        skipped["nb_function_deictic"] += 1
        return []
    library = LIBRARIES[m.group("lib")]
    return [Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=sentence, subject=f"{verb} {rest}",
                 about_doc=False, relation=FUNCTION, answer=m.group("f"), kind=TruthType.ENTITY.value,
                 ask=f"Which {library} function {{s}}?")]


def _shapes(chunk: Any, title: str, text: str, skipped: Counter, unique_title: bool = True,
            length: bool = False) -> list[Fact]:
    """A data set's printed shape (`SHAPE`), or with `length` its printed length, "len(train_data)" → "Output: 8982"
    → "In the notebook “T”, what is the length of train_data?" (`LENGTH`, with `--mix nb_printed`): the same data set
    names only."""
    line_re, out_re = (_LENGTH_LINE, _LENGTH_OUT) if length else (_SHAPE_LINE, _SHAPE_OUT)
    kind = "length" if length else "shape"  # refusals counted apart: nb_shape_generic, nb_length_generic, …
    lines = chunk.text.split("\n")
    out: list[Fact] = []
    for n, line in enumerate(lines):
        m = line_re.match(line.strip())
        if not m:
            continue
        after = next((x for x in lines[n + 1:n + 4] if x.strip()), "")
        value = out_re.match(after.strip())
        if not value:
            continue
        name = m.group("e")
        if not unique_title:
            skipped["nb_title_shared"] += 1
            continue
        if name.split(".")[0].lower() in _GENERIC or len(name) < 4 or not title.strip():
            skipped[f"nb_{kind}_generic"] += 1
            continue
        loaded = re.search(rf"^\s*{re.escape(name.split('.')[0])}\s*=\s*{_LOADER}", text, re.MULTILINE)
        if _NOT_DATA.search(name) or not (_DATA_NAME.search(name) or loaded):
            # "dist_sq", "sq_differences", "proj": a step of the computation, whose shape a learner does not ask
            skipped[f"nb_{kind}_not_data"] += 1
            continue
        shown = " ".join(title.split())
        out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=f"{line.strip()}\n{after.strip()}",
                        subject=name, about_doc=False, relation=LENGTH if length else SHAPE, answer=value.group("v"),
                        kind=TruthType.ENTITY.value,
                        ask=f"In the notebook “{shown}”, what is the {kind} of {{s}}?"))
    return out


def _printed(chunk: Any, title: str, skipped: Counter, unique_title: bool = True, following: Any = None) -> list[Fact]:
    """A labelled result a code cell printed: `print('test_acc:', test_acc)` and "Output: test_acc: 0.9777" under it →
    "In the notebook “T”, what is the test accuracy?" → "0.9777" (`PRINTED`). The value is read from the output line
    that repeats the print's label, so a cleared output, an error or a print with no label gives nothing; a print
    indented under a loop or a function prints many values, and is refused; the same label printed twice with two
    values in one notebook is refused as disputed (`factbase.unique_in_corpus`: the question names the notebook).
    A long cell's output may open the `following` passage: read there, and the fact is that passage's."""
    lines = chunk.text.split("\n")
    after = [(following, x) for x in following.text.split("\n")] if following is not None else []
    out: list[Fact] = []
    for n, line in enumerate(lines):
        m = _PRINT_LABEL.match(line.strip())
        if not m:
            continue
        if line[:1].isspace():
            skipped["nb_printed_indented"] += 1  # in a loop or a function: one of many values, or none
            continue
        label = " ".join(m.group("l").replace("_", " ").split())
        value, quote, holder = "", "", chunk
        tail = [(chunk, x) for x in lines[n + 1:]] + after
        for k, (where, x) in enumerate(tail[:40]):
            if x.startswith(_ERROR_LABEL):
                break  # the cell failed: what a later cell printed is not this print's
            if x.startswith(OUTPUT_LABEL):
                # the output block: this line and the lines under it to the next blank line
                block = [x] + _until_blank([y for _, y in tail[k + 1:]])
                found = [p for p in (_PRINTED_LINE.match(y.strip()) for y in block)
                         if p and " ".join(p.group("l").replace("_", " ").split()).lower() == label.lower()]
                if len(found) == 1:
                    value, quote, holder = found[0].group("v"), found[0].string, where  # the printed line is the quote
                break
        if not value:
            skipped["nb_printed_no_value"] += 1  # cleared, an error, text not a number, or the label printed twice
            continue
        words = [_LABEL_WORDS.get(w.lower(), w if any(c.isupper() for c in w[1:]) else w.lower()) for w in label.split()]
        # "The mean burrow depth is 41.7" (a sentence the print reads as) → "mean burrow depth"
        phrase = re.sub(r" (?:is|are|was|were)$", "", re.sub(r"^(?:(?:this|here) is )?the ", "", " ".join(words)))
        words = phrase.split()
        if (any(w.lower() in _NOT_RESULTS for w in label.replace("-", " ").split()) or len(words) < 2
                or all(w.lower() in _STATISTICS for w in words) or re.search(r"\d", label)):
            # "x // 2 =", "dtype:", "transformed shape:", "Mean:", "Standard deviation:", and a label holding a number:
            # a condition of the computation ("Days with more than 10 mm:", read unnatural on tuning)
            skipped["nb_printed_not_result"] += 1
            continue
        if not title.strip() or not unique_title:
            skipped["nb_title_shared" if title.strip() else "nb_no_subject"] += 1
            continue
        shown = " ".join(title.split())
        plural = [w.endswith("s") and not w.endswith(("ss", "ics", "is", "us")) for w in words]
        count = re.fullmatch(r"\d[\d,]*", value) is not None  # "how many" asks a count, not "12 kg" nor "0.97"
        if count and words[0] in ("number", "total"):
            # "total training cat images: 1000" → "how many training cat images are there in total?", "Number days
            # with rain: 144" → "how many days with rain are there?"
            subject = phrase.split(" ", 2 if phrase.startswith("number of ") else 1)[-1]
            ask = f"In the notebook “{shown}”, how many {{s}} are there{' in total' if words[0] == 'total' else ''}?"
        elif count and (plural[0] or plural[-1]) and "of" not in words:
            # "Unique characters: 57", "Days with more than 10 mm: 34"
            subject, ask = phrase, f"In the notebook “{shown}”, how many {{s}} are there?"
        else:
            # "test accuracy", "Maximum height", "total mass" (12 kg)
            subject, ask = phrase, f"In the notebook “{shown}”, what is the {{s}}?"
        out.append(Fact(doc_id=holder.doc_id, chunk_id=holder.chunk_id, sentence=quote,
                        subject=subject, about_doc=False, relation=PRINTED, answer=value,
                        kind=TruthType.ENTITY.value, ask=ask))
    return out


def _default(chunk: Any, sentence: str, title: str, skipped: Counter, unique_title: bool = True) -> list[Fact]:
    """"We can specify this explicitly using the how keyword, which defaults to "inner"" → "In the notebook “T”, what
    does the how keyword default to?" → "inner" (`DEFAULT`)."""
    out: list[Fact] = []
    for m in _DEFAULT.finditer(sentence):
        if not title.strip() or not unique_title:
            skipped["nb_title_shared" if title.strip() else "nb_no_subject"] += 1
            continue
        value = m.group("v").strip("\"'").rstrip(".")  # "which defaults to D."
        if value.lower() in ("the", "a", "an", "this", "that", "it", "whatever", "none_of"):
            skipped["nb_default_shape"] += 1  # "defaults to the log-likelihood": no value, a phrase
            continue
        shown = " ".join(title.split())
        out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=sentence,
                        subject=f"the {m.group('n')} {m.group('k')}", about_doc=False, relation=DEFAULT, answer=value,
                        kind=TruthType.ENTITY.value, ask=f"In the notebook “{shown}”, what does {{s}} default to?"))
    return out


def _unwrapped(prose: str) -> str:
    """`prose` with each hand-wrapped line joined to the line that goes on with its sentence: `_SENTENCE` reads a
    sentence on one line (a code line never closes a prose sentence), so a wrapped one was never read."""
    lines = prose.split("\n")
    out: list[str] = []
    for line in lines:
        if out and _WRAPPED.match(out[-1]) and _GOES_ON.match(line):
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out)


# words English prose cannot go a sentence without; German, French or Spanish prose rarely uses them
_ENGLISH = frozenset("the of and to is are this that we with for it be can".split())


def _english(chunks: Sequence[Any]) -> bool:
    """Whether a printed label can be asked in an English question: the kernel runs Python (`print(…)` is Python's;
    the reader records the kernel's language) and the notebook's prose, where it has 30 words or more, is English
    ("Mittlere Tiefe: 41.7" in a German notebook would be asked "what is the mittlere tiefe?")."""
    language = str((getattr(chunks[0], "metadata", None) or {}).get("language") or "python") if chunks else "python"
    if language.lower() not in ("python", "python3", "ipython"):
        return False
    words = re.findall(r"[A-Za-zÀ-ÿ]+", " ".join(_without_outputs(c.text) for c in chunks).lower())
    return len(words) < 30 or sum(w in _ENGLISH for w in words) >= 0.05 * len(words)


def _until_blank(lines: Sequence[str]) -> list[str]:
    block = []
    for x in lines:
        if not x.strip():
            break
        block.append(x)
    return block


def _without_outputs(text: str) -> str:
    """`text` with what cells printed blanked out (an "Output:" line and the lines under it to the next blank line):
    a printed "A quokka is a small marsupial." is the program's string, not the notebook's prose."""
    out, printing = [], False
    for line in text.split("\n"):
        printing = line.startswith(OUTPUT_LABEL) or (printing and bool(line.strip()))
        out.append("" if printing else line)
    return "\n".join(out)
