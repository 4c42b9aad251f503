#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lab-rseq-size on the host, from its header: it prints glibc's __rseq_size; with "on" it exits
# 1 unless glibc registered, with "off" or "none" unless it did not, with anything else 1;
# glibc.pthread.rseq=0 is what makes glibc not register.
. "$(dirname "$0")/../../../scripts/tests/bench-tap.sh"
need_bin lab-rseq-size
rs() { "$bin" "$@" 2>/dev/null; echo "rc=$?"; }
off() { GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin" "$@" 2>/dev/null; echo "rc=$?"; }
size=$("$bin")
if [ "${size:-0}" -gt 0 ]; then
	is "$(rs on | tr '\n' ' ')" "$size rc=0 " "registered: 'on' holds (size $size)"
	is "$(rs off | tail -n 1)/$(rs none | tail -n 1)" "rc=1/rc=1" "registered: 'off' and 'none' fail"
else
	skip "this host's kernel has no rseq: glibc cannot register" "registered: on holds, off and none fail"
fi
is "$(off | tr '\n' ' ')" "0 rc=0 " "glibc.pthread.rseq=0: size 0"
is "$(off off | tail -n 1)/$(off none | tail -n 1)/$(off on | tail -n 1)" "rc=0/rc=0/rc=1" \
	"glibc.pthread.rseq=0: 'off' and 'none' hold, 'on' fails"
is "$(GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin" on 2>&1 >/dev/null | grep -c "is not 'on'")" 1 \
	"  saying which state it wanted"
is "$(rs sideways | tail -n 1)" "rc=1" "a state it does not know fails"
done_testing
