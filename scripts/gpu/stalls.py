"""stalls.py FILE.source.csv [N]: where a kernel's warps stall, from Nsight
Compute's SASS source page (ncu -i REP --page source --print-source sass
--csv): the stall-reason columns summed over the kernel, then the N
instructions with the most stall samples and their three largest reasons.
"""
import csv
import sys

rows = list(csv.reader(open(sys.argv[1], newline="")))
n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
head = next((i for i, r in enumerate(rows) if any("Source" == c.strip() for c in r)), None)
if head is None:
    print("no header with a Source column; first lines:")
    for r in rows[:5]:
        print(r)
    sys.exit(0)
cols = [c.strip() for c in rows[head]]
data = [r for r in rows[head + 1:] if len(r) == len(cols)]
src = cols.index("Source")


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


stall = [i for i, c in enumerate(cols) if "stall" in c.lower() and "not issued" not in c.lower()]
total = {cols[i]: sum(num(r[i]) for r in data) for i in stall}
print("columns:", len(cols), "instructions:", len(data))
for name, v in sorted(total.items(), key=lambda kv: -kv[1])[:20]:
    print(f"{v:14.0f}  {name}")
allcol = next((i for i in stall if "all samples" in cols[i].lower() and "not" not in cols[i].lower()), stall[0] if stall else None)
if allcol is None:
    sys.exit(0)
reasons = [i for i in stall if i != allcol and "sampling" not in cols[i].lower()]
print(f"\ntop {n} instructions by {cols[allcol]}:")
for r in sorted(data, key=lambda r: -num(r[allcol]))[:n]:
    top = sorted(reasons, key=lambda i: -num(r[i]))[:3]
    why = ", ".join(f"{cols[i]} {num(r[i]):.0f}" for i in top if num(r[i]) > 0)
    print(f"{num(r[allcol]):8.0f}  {r[src].strip()[:60]:60}  {why}")
