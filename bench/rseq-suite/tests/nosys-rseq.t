#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-nosys-rseq on the host (x86_64; the ARM guests run it in scripts/arch/tests): under it
# rseq(2) fails with ENOSYS in the command and in everything it forks and execs, glibc runs
# unregistered, our ABI test skips as on an RSEQ=n kernel, and the command's exit status or
# signal comes back; without it the same programs see rseq.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-nosys-rseq
nosys=$bin probe=$BUILD/guest/bin/rseq-probe cs=$BUILD/guest/bin/rseq-cs
if ! "$probe" >/dev/null 2>&1; then
	echo "1..0 # SKIP the host kernel has no rseq: nothing to hide"
	exit 0
fi
ok 0 "without the wrapper rseq-probe sees rseq"
out=$(bounded 30 "$nosys" "$probe" 2>&1); rc=$?
is "$rc:$out" "1:rseq: ENOSYS" "under it rseq-probe sees ENOSYS (exit 1)"
out=$(bounded 30 "$nosys" sh -c "$probe; sh -c $probe & wait" 2>&1)
is "$out" "rseq: ENOSYS
rseq: ENOSYS" "... in a child and a grandchild too (fork, exec)"
out=$(LAB_NOSYS_VERBOSE=1 bounded 30 "$nosys" "$cs" 2>&1); rc=$?
like "$out" '^1\.\.0 # SKIP rseq: ENOSYS' "rseq-cs skips as on an RSEQ=n kernel"
like "$out" 'lab-nosys-rseq: 2 rseq call\(s\) refused' "... glibc's registration and the probe both refused"
is "$rc" 0 "... exit 0"
bounded 30 "$nosys" sh -c 'exit 7'; is $? 7 "the command's exit status comes back"
bounded 30 "$nosys" sh -c 'kill -TERM $$'; is $? 143 "a command killed by SIGTERM: 128 + 15"
out=$(bounded 30 "$nosys" sh -c '(sleep 1; kill -CONT $$) & kill -STOP $$; echo resumed; wait')
is "$?:$out" "0:resumed" "a command stopped (SIGSTOP) and continued carries on"
bounded 30 "$nosys" /no/such/program 2>/dev/null; is $? 127 "a missing command: 127"
err=$("$nosys" 2>&1); rc=$?
is "$rc:$err" "2:usage: lab-nosys-rseq CMD [ARG...]" "no command: usage, status 2"
done_testing
