#!/usr/bin/env bash
# The whole GPU proof as one bounded call: the GPU tests (sync, fused attention kernels, mixed precision, operator
# sequences, compile, FSDP, memory), bench_memory with an 11 GiB cap, and bench_overhead's validate and
# per-stage/per-batch parts with enough rounds to decide a 1.01 ratio at batch 64. Each step's output is written as
# soon as it ends and everything is packed into one archive after every step, so a step that runs out of time loses
# nothing already written.
#
# Usage, from the repository root:
#   scripts/gpu_proof.sh [--wheel DIR] [--out DIR]   # on a machine with an NVIDIA GPU
#   scripts/gpu_proof.sh --dry-run --out DIR         # anywhere: the CPU fallbacks, small sizes (CI runs this)
#
# --wheel DIR installs this project's wheel from DIR with pip --no-index --no-deps (a GPU machine without a package
# registry whose python already holds torch, Lightning, timm and transformers); without it the python found is used
# as it is. PYTHON picks the interpreter (default python3). GRADMODE_COMMIT names the commit in the results when the
# tree has no .git. The archive is OUT/gpu_proof.tar.gz; OUT/summary.txt has one line per step. The exit status is
# 0 only when every step passed.
set -uo pipefail

dry_run=0
wheel=""
out="${OUT:-gpu_proof_out}"
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --wheel) wheel="$2"; shift ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "gpu_proof.sh: unknown argument '$1' (allowed: --dry-run, --wheel DIR, --out DIR)" >&2; exit 2 ;;
  esac
  shift
done

cd "$(dirname "$0")/.."
py="${PYTHON:-python3}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$out/work"
mkdir -p "$work"
summary="$out/summary.txt"
: > "$summary"
status=0  # 1 once a step failed or timed out: the exit status of the whole proof
export PYTHONUNBUFFERED=1

pack() {
  tar -czf "$out/gpu_proof.tar.gz.part" -C "$work" . && mv "$out/gpu_proof.tar.gz.part" "$out/gpu_proof.tar.gz"
  cp "$summary" "$work/summary.txt"
}

# step NAME LIMIT_S COMMAND...: run it with a time limit, its output in work/NAME.log, its exit status summarised.
step() {
  local name="$1" limit="$2"
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" > "$work/$name.log" 2>&1
  local rc=$?
  local verdict="ok"
  [ $rc -eq 124 ] && verdict="timed out after ${limit}s"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && verdict="failed (exit $rc)"
  [ $rc -ne 0 ] && status=1
  echo "$name: $verdict in $((SECONDS - start))s" | tee -a "$summary"
  tail -n 3 "$work/$name.log" | sed 's/^/    /' | tee -a "$summary"
  pack
  return 0
}

commit="${GRADMODE_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
{
  echo "commit: $commit"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "dry run: $dry_run"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  "$py" -c "import platform, torch; print('python', platform.python_version(), 'torch', torch.__version__, 'cuda', torch.version.cuda, 'gpu', torch.cuda.get_device_name() if torch.cuda.is_available() else None)"
  "$py" -c "import pytorch_lightning as pl; print('pytorch_lightning', pl.__version__)" 2>/dev/null
} > "$work/environment.txt" 2>&1
cat "$work/environment.txt" | tee -a "$summary"

if [ -n "$wheel" ]; then
  step install 120 "$py" -m pip install --no-index --no-deps --force-reinstall "$wheel"/*.whl
fi

if [ "$dry_run" -eq 1 ]; then
  device=cpu
  memory_args=(--device cpu --quick --no-plot --batches 1 --ways inference,grad_on)
  overhead_args=(--device cpu --quick --only validate,stage --workloads tiny_mlp --rounds 1 --warmup 0)
  limits=(300 300 300)
else
  device=cuda
  memory_args=(--device cuda --batches 16,64,256 --cap-gib 11)
  overhead_args=(--device cuda --only validate,stage --workloads resnet50 --rounds 10)
  limits=(240 150 240)
fi

# The GPU tests; without a GPU each one skips, saying why. Their results are also written as JUnit XML as each test
# ends, so they stand on their own when the process fails after its tests (it has aborted while exiting, in the
# garbage collection after torch.compile's worker pool started).
step pytest_gpu "${limits[0]}" "$py" -m pytest tests/gpu -m gpu -p no:cacheprovider -q -rA \
  --junitxml "$work/pytest_gpu.xml"
"$py" - "$work/pytest_gpu.xml" <<'PY' 2>&1 | tee -a "$summary"
import sys
import xml.etree.ElementTree as ElementTree

try:
    cases = list(ElementTree.parse(sys.argv[1]).getroot().iter("testcase"))
except (OSError, ElementTree.ParseError) as err:
    print(f"    tests: no JUnit results ({err})")
    raise SystemExit(0)
counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
outcome = {"failure": "failed", "error": "errors", "skipped": "skipped"}
for case in cases:
    found = [outcome[child.tag] for child in case if child.tag in outcome]
    counts[found[0] if found else "passed"] += 1
print("    tests (pytest_gpu.xml): " + ", ".join(f"{n} {word}" for word, n in counts.items()))
PY
pack
step bench_memory "${limits[1]}" "$py" scripts/bench_memory.py "${memory_args[@]}" --out "$work"
step bench_overhead "${limits[2]}" "$py" scripts/bench_overhead.py "${overhead_args[@]}" --out "$work"

echo "device: $device; results in $out/gpu_proof.tar.gz" | tee -a "$summary"
pack
exit "$status"
