"""The house's import graph: which package imports which, import circles, and arrows that point up.

Reads every module of the five packages with `ast` (nothing is imported or run), counts the
imports between packages (deferred imports inside functions too; `if TYPE_CHECKING:` blocks
apart, since they never run), finds circles between modules (strongly connected components of the
module graph), and checks each arrow between rooms against DESIGN.md's "may import" table. The
rooms are the five packages plus `context1.interfaces` (the CLI, HTTP, MCP, client and
integrations), a layer above the harness core: the core may not import it. A package's own
`__init__` re-exporting a name from a sub-room (`context1.Client`, imported lazily from
`context1.interfaces.client`) is the package's public face, not an arrow. Prints a table and draws
the room graph (matplotlib) with upward arrows in red.

  .venv/bin/python benchmarks/import_graph.py --root . --png docs/figures/import_graph_after.png
  .venv/bin/python benchmarks/import_graph.py --root /tmp/old --png docs/figures/import_graph_before.png

Exits 1 when there is a circle or an upward arrow, so CI could run it.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

PACKAGES = ("corpus_tools", "context1", "datagen", "eval", "training")
INTERFACES = "context1.interfaces"  # a room inside context1, above its core
ROOMS = (*PACKAGES, INTERFACES)
# DESIGN.md: the rooms each one may import (besides itself).
MAY_IMPORT = {
    "corpus_tools": set(),
    "context1": {"corpus_tools"},
    INTERFACES: {"context1", "corpus_tools"},
    "datagen": {"context1", INTERFACES, "corpus_tools"},
    "eval": {"context1", INTERFACES, "corpus_tools"},
    "training": {"eval", "context1", INTERFACES, "corpus_tools"},
}


def room(module: str) -> str:
    """The room a module lives in: `context1.interfaces` for the interfaces, else its package."""
    if module == INTERFACES or module.startswith(INTERFACES + "."):
        return INTERFACES
    return module.split(".")[0]


def reexport(src: str, dst: str) -> bool:
    """A package's own __init__ naming something of a room inside it (`context1` -> `context1.interfaces`)."""
    return src in PACKAGES and room(dst) != src and room(dst).startswith(src + ".")


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports inside `if TYPE_CHECKING:` blocks (never executed)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                for sub in ast.walk(child):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        lines.add(sub.lineno)
    return lines


def module_imports(root: Path) -> dict[str, set[str]]:
    """module -> the modules of ours it imports (at run time)."""
    modules = {
        module_name(root, p): p for pkg in PACKAGES if (root / pkg).is_dir() for p in sorted((root / pkg).rglob("*.py"))
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        found: set[str] = set()
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and target.split(".")[0] in PACKAGES:
                    found.add(target)
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), excluding package __init__ re-exports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def edges(v: str) -> set[str]:
        # A package's __init__ importing its own submodules is a re-export, not a dependency cycle.
        return {w for w in graph.get(v, ()) if w not in PACKAGES}

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index and v not in PACKAGES:
            visit(v)
    return out


def package_edges(graph: dict[str, set[str]]) -> Counter:
    edges: Counter = Counter()
    for src, targets in graph.items():
        for dst in targets:
            a, b = room(src), room(dst)
            if a != b and not reexport(src, dst):
                edges[(a, b)] += 1
    return edges


def draw(edges: Counter, upward: set[tuple[str, str]], found: list[list[str]], title: str, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pos = {"corpus_tools": (0.5, 0.0), "context1": (0.7, 1.1), INTERFACES: (0.0, 2.0), "datagen": (0.15, 3.0),
           "eval": (1.0, 2.2), "training": (1.0, 3.6)}  # fmt: skip
    fig, ax = plt.subplots(figsize=(6, 6))
    for (a, b), n in sorted(edges.items()):
        (x0, y0), (x1, y1) = pos[a], pos[b]
        bad = (a, b) in upward
        rad = 0.25 if (b, a) in edges else 0.0
        ax.annotate(
            "",
            xy=(x1, y1),
            xytext=(x0, y0),
            arrowprops=dict(
                arrowstyle="-|>", color="red" if bad else "0.35", lw=1 + min(n, 30) / 10,
                shrinkA=28, shrinkB=28, connectionstyle=f"arc3,rad={rad}",
            ),
        )  # fmt: skip
        ax.text((x0 + x1) / 2 + rad / 3, (y0 + y1) / 2, str(n), color="red" if bad else "0.2", fontsize=8)
    for name, (x, y) in pos.items():
        ax.text(x, y, name, ha="center", va="center", fontsize=11, bbox=dict(boxstyle="round", fc="white", ec="0.3"))
    note = "module circles: " + ("; ".join(" <-> ".join(c) for c in found) if found else "none")
    ax.text(0.5, -0.45, note, ha="center", fontsize=9, color="red" if found else "0.2")
    ax.set_xlim(-0.35, 1.3)
    ax.set_ylim(-0.6, 4.1)
    ax.axis("off")
    ax.set_title(title, fontsize=10)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110, bbox_inches="tight")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--png", type=Path, default=None)
    parser.add_argument("--title", default=None)
    args = parser.parse_args()
    graph = module_imports(args.root.resolve())
    edges = package_edges(graph)
    upward = {(a, b) for (a, b) in edges if b not in MAY_IMPORT[a]}
    found = circles(graph)
    print("| from | to | imports | allowed by DESIGN |")
    print("|---|---|---:|---|")
    for (a, b), n in sorted(edges.items()):
        print(f"| {a} | {b} | {n} | {'yes' if (a, b) not in upward else '**no: upward**'} |")
    print(f"\nmodule circles: {len(found)}")
    for component in found:
        print("  " + " <-> ".join(component))
    if upward:
        for a, b in sorted(upward):
            offenders = sorted(
                s for s, ts in graph.items() if room(s) == a and any(room(t) == b and not reexport(s, t) for t in ts)
            )
            print(f"upward {a} -> {b}: {', '.join(offenders)}")
    if args.png:
        title = args.title or f"{args.root.resolve()}: {len(found)} circle(s), {len(upward)} upward arrow(s)"
        draw(edges, upward, found, title, args.png)
        print(f"wrote {args.png}")
    return 1 if found or upward else 0


if __name__ == "__main__":
    raise SystemExit(main())
