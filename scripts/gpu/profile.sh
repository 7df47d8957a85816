#!/usr/bin/env bash
# profile.sh: Nsight Compute on the tensor-core GEMM kernels, run on the lent
# machine from the folder build.sh fills (next to plan.sh). The database's
# gemm_mma programs for DGEMM and 3xTF32 SGEMM are built by bench, their PTX
# taken from the program cache and run through ptxrun.py (CuPy), which ncu
# profiles; ptxas -v and the SASS come with them. Everything is packed into
# $OUT/profile.tgz (a device call returns at most 8 files).
#
#   profile.sh PREC:N:MWG:NWG:WM:WN[:KEY=VALUE,...]...
#
# Each argument is a kernel to profile at n = N: the database's gemm_mma entry
# of that precision with the tile given and the extra defines (e.g.
# MMA_K=8,CP_VEC=1) set; TRANS=NN|NT|TN|TT among them picks the transpose
# combination (NN when absent; the entry's per-combination switches then
# apply unless the extra defines set them).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
w=/tmp/profile
rm -rf "$w"
mkdir -p "$out" "$w"
if [ -e /usr/lib/libnvidia-opencl.so.1 ] && [ -d /etc/OpenCL/vendors ]; then
	echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export LD_LIBRARY_PATH=$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GOCL_DEVICE=${GOCL_DEVICE:-nvidia}
PATH=$PATH:/usr/local/cuda/bin
cd "$here"
i=0
for spec in "$@"; do
	i=$((i + 1))
	IFS=: read -r prec n mwg nwg wm wn extra <<<"$spec"
	trans=NN
	if [[ ",$extra," =~ ,TRANS=([NT][NT]), ]]; then
		trans=${BASH_REMATCH[1]}
		extra=$(sed -e "s/,TRANS=$trans,/,/" -e 's/^,//' -e 's/,$//' <<<",$extra,")
	fi
	name="k$i-p$prec-$trans-${mwg}x$nwg-${wm}x$wn"
	log="$w/$name.txt"
	echo "== $spec" | tee "$log"
	cache=/tmp/pcache-$i
	rm -rf "$cache"
	python3 - gemm_tuning.json "$w/db-$i.json" "$prec" "MWG=$mwg,NWG=$nwg,WM=$wm,WN=$wn${extra:+,$extra}" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
for d in db["devices"]:
    for e in d.get("entries", []):
        if e.get("kernel") == "gemm_mma" and e.get("precision") == int(sys.argv[3]):
            for kv in sys.argv[4].split(","):
                key, val = kv.split("=")
                e["defines"][key] = int(val)
                # A switch set here holds for every combination.
                for sw in e.get("trans", {}).values():
                    sw.pop(key, None)
            print("defines:", e["defines"])
json.dump(db, open(sys.argv[2], "w"), indent=1)
PY
	env GOCL_CACHE_DIR=$cache GOCL_GEMM_TUNING="$w/db-$i.json" timeout 60 ./bench -sizes 2048 -prec "$prec" -trans "$trans" -slices=false -gonum-max 0 -reps 1 >>"$log" 2>&1
	ptx=$(grep -l '.entry gemm_mma' "$cache"/*.bin 2>/dev/null | head -1)
	if [ -z "$ptx" ]; then
		echo "no gemm_mma PTX built" >>"$log"
		continue
	fi
	python3 ptxextract.py "$ptx" "$w/$name.ptx" >>"$log" 2>&1
	timeout 60 ptxas -arch=sm_90 -v -o "$w/$name.cubin" "$w/$name.ptx" >>"$log" 2>&1
	timeout 60 cuobjdump -sass "$w/$name.cubin" >"$w/$name.sass" 2>&1
	timeout 60 python3 ptxrun.py "$w/$name.ptx" "$prec" "$n" "$mwg" "$nwg" "$wm" "$wn" 20 "$trans" >>"$log" 2>&1
	timeout 150 ncu --clock-control none --set full -k gemm_mma -c 1 -o "$w/$name" \
		python3 ptxrun.py "$w/$name.ptx" "$prec" "$n" "$mwg" "$nwg" "$wm" "$wn" 1 "$trans" >>"$log" 2>&1
	if [ -e "$w/$name.ncu-rep" ]; then
		ncu -i "$w/$name.ncu-rep" --page details >"$w/$name.details.txt" 2>&1
		ncu -i "$w/$name.ncu-rep" --page source --print-source sass --csv >"$w/$name.source.csv" 2>&1
		python3 stalls.py "$w/$name.source.csv" 30 >"$w/$name.stalls.txt" 2>&1
		rm -f "$w/$name.ncu-rep"
	fi
	tail -n 3 "$log"
	cat "$w/$name.stalls.txt" 2>/dev/null
	grep -i -E "stall|warp cycles per" "$w/$name.details.txt" 2>/dev/null | head -20
	grep -E 'Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Executed Ipc Active' "$w/$name.details.txt" 2>/dev/null
done
tar czf "$out/profile.tgz" -C /tmp profile
# (profile.sh leaves one file in $OUT; run it before plan.sh in one call so
# that plan.sh packs both when they are more than 8)
ls -la "$out"
