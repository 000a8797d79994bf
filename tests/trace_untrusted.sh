#!/bin/sh
# Names from outside never run as commands: codelet names in a tasks.rec written to look like gnuplot
# code (system(...), `...`), and trace folders and pictures whose names hold quotes, ';' and gnuplot
# code, go through trace gantt, bench sched --plot and (with FxT, when the third argument is "fxt")
# --trace; each run must succeed, or fail cleanly where gnuplot is not installed, and no marker file
# PWNED* may appear. With FxT, a link planted at a trace folder's old temporary name is not followed.
#   trace_untrusted.sh QUARKFLOW WORKDIR [fxt]
set -u
qf=$1
work=$2/trace-untrusted
fxt=${3:-}
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
status=0

# runs quarkflow, which must succeed (or say that gnuplot is not installed)
run() {
    what=$1
    shift
    if out=$("$qf" "$@" 2>&1); then
        echo "ok   $what"
    elif echo "$out" | grep -q "gnuplot is not installed"; then
        echo "ok   $what (gnuplot is not installed: refused cleanly)"
    else
        echo "$out"
        echo "FAIL $what: quarkflow failed"
        status=1
    fi
}

# one executed task per codelet name given
tasks_rec() {
    job=0
    for model in "$@"; do
        job=$((job + 1))
        printf 'Name: task%d\nModel: %s\nJobId: %d\nWorkerId: 0\nStartTime: %d.0\nEndTime: %d.5\nMPIRank: -1\n\n' \
            "$job" "$model" "$job" "$job" "$job"
    done
}

mkdir names
tasks_rec '".system("touch PWNED-name-quote")."' '`touch PWNED-name-backquote`' "'.system(\"touch PWNED-name-single\").'" \
    'qf_wilson_interior' > names/tasks.rec
run "codelet names written as gnuplot code" trace gantt names --to 10
if grep -q -e 'system(' -e '`' names/gantt.gp 2>/dev/null; then
    echo "FAIL: gantt.gp holds a codelet name unsanitised:"
    grep 'names =' names/gantt.gp
    status=1
fi

for dir in "q';touch PWNED-dir-shell;'" "q'.system(\"touch PWNED-dir-gnuplot\").'"; do
    mkdir "$dir"
    tasks_rec qf_wilson_interior qf_blas_reduce > "$dir/tasks.rec"
    run "trace gantt in the folder $dir" trace gantt "$dir" --to 10
    run "trace gantt --out $dir.svg" trace gantt "$dir" --to 10 --out "$dir.svg"
done

run "bench sched --plot with quotes in the name" bench sched --dim 4 4 4 4 --policies eager --warmup-solves 0 \
    --plot "s';touch PWNED-plot-shell;'.system(\"touch PWNED-plot-gnuplot\").'.svg"

if [ "$fxt" = fxt ]; then
    trace="t';touch PWNED-trace-shell;'"
    if out=$("$qf" --trace "$trace" gauge measure --dim 4 4 4 4 2>&1) && [ -s "$trace/paje.trace" ]; then
        echo "ok   --trace $trace: paje.trace written"
    else
        echo "$out"
        echo "FAIL --trace $trace: no paje.trace"
        status=1
    fi
fi

if [ "$fxt" = fxt ]; then
    # a link planted where the colour fix once wrote its temporary copy of paje.trace: never followed
    mkdir planted
    echo "keep me" > victim
    ln -s ../victim planted/paje.trace.tmp
    if "$qf" --trace planted gauge measure --dim 4 4 4 4 > /dev/null 2>&1 && [ "$(cat victim)" = "keep me" ] &&
        [ -s planted/paje.trace ]; then
        echo "ok   --trace into a folder with a planted paje.trace.tmp link: the link's target is untouched"
    else
        echo "FAIL --trace wrote through the link planted/paje.trace.tmp (victim now: $(head -c 80 victim))"
        status=1
    fi
fi

markers=$(find . -name 'PWNED*')
if [ -n "$markers" ]; then
    echo "FAIL: names ran as commands and made $markers"
    status=1
fi
[ "$status" = 0 ] && echo "ok   no marker file: no name ran as a command"
exit $status
