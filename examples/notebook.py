"""The workbench from Python, as in a notebook: one import, objects that show themselves.

Run it from any folder (it writes ``hasse-dominance.svg`` there)::

    python examples/notebook.py

Each step prints the object (its ``repr`` is a short summary) and one line of
the plain values it holds.  In Jupyter the same objects draw themselves:
verdicts and tables as HTML, the Hasse diagram as SVG.
"""
import workbench as wb

# 1. On which scale is RBP with p = 4/5, relative to the rank order on binary runs of depth 4?
#    Not even ordinal: a witness pair shows it, with both exact values.
verdict = wb.classify("RBP(p=0.8)", order="rank", depth=4)
print(verdict)
w = verdict.witness
print(f"classify: {verdict.verdict} {''.join(map(str, w.lower))} {''.join(map(str, w.upper))} "
      f"{w.lower_value} {w.upper_value}")
print()

# 2. The Hasse diagram of the dominance order (Moffat and Mackenzie 2024, Fig. 1 at depth 4), saved as SVG.
#    diagram.graph is the networkx DiGraph (edges go from the lower run to the upper one).
diagram = wb.hasse(order="dominance", depth=4)
print(diagram)
saved = diagram.save("hasse-dominance.svg")
above = sorted("".join(map(str, r)) for r in diagram.graph.successors((0, 1, 0, 1)))
print(f"hasse: {len(diagram.nodes)} nodes, {len(diagram.edges)} covers, graded {diagram.graded}, "
      f"lattice {diagram.lattice}, above 0101: {' '.join(above)}, wrote {saved.path} ({saved.engine})")
print()

# 3. Where does RBP's p make it interval, ordinal, weak or violated? Exact regions, depth by depth.
table = wb.thresholds("RBP", param="p", depth=range(2, 6))
print(table)
for row in table:
    checks = " ".join(f"{p}:{row.verdict_at(p)}" for p in ("1/3", "1/2", "3/5", "2/3", "9/10"))
    print(f"thresholds: depth {row.depth} {checks}")
print()

# 4. The IPSO census (Moffat and Mackenzie 2024, Table 2): exact counts over all ordered pairs of runs.
census = wb.census(depth=6)
print(census)
print(f"census: depth 6 pairs {census.pairs} equal {census.equal} ni {census.ni} ns {census.ns} "
      f"nonsep {census.nonsep}")
deep = wb.census(depth=1000)
print(f"census: depth 1000 nonsep has {len(str(deep.nonsep))} digits, ending {deep.nonsep % 10**20:020d}")
