"""ptxextract.py CACHE.bin OUT.ptx: the PTX of a program NVIDIA's OpenCL built,
taken from our program cache and made loadable by the CUDA driver.

The cache file is our header, the PTX, then OpenCL's metadata section (which
the CUDA driver does not take). OpenCL's kernels read their launch from
%envreg registers: 0 and 1 the global work offset in groups (none here), 6 and
7 the number of groups in x and y; those become CUDA's.
"""
import sys

d = open(sys.argv[1], "rb").read()
start, end = d.find(b"//\n// Generated"), d.find(b".metadata_section")
ptx = d[start:end if end > 0 else len(d)].rstrip(b"\0").decode()
for reg, val in (("%envreg0", "0"), ("%envreg1", "0"), ("%envreg6", "%nctaid.x"), ("%envreg7", "%nctaid.y")):
    ptx = ptx.replace(reg + ";", val + ";")
if "%envreg" in ptx:
    sys.exit("ptxextract: an OpenCL launch register is left in " + sys.argv[1])
open(sys.argv[2], "w").write(ptx)
