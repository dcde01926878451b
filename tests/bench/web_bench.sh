# web_bench.sh: sourced by the page's benchmarks (perft_web.sh, bot_web.sh,
# load_web.sh) after they set build: builds the native program when it is
# missing, the WebAssembly part and the page (scripts/build-wasm.sh), the
# npm packages, and gives median (of numbers, one a line on stdin) and
# cpu_of (bash `time` output "USER SYS" to seconds).
[ -x "$build/tabula" ] || BUILD_DIR=$build scripts/build.sh
scripts/build-wasm.sh
scripts/web-deps.sh
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
cpu_of() { awk -v t="$1" 'BEGIN { split(t, a, " "); printf "%.3f", a[1] + a[2] }'; }
TIMEFORMAT='%U %S'
