#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The crash matcher (console_crash, scripts/lib.sh) on guest console logs: each kind of kernel
# crash is found, by its kernel line; the guest program's own output ("| " lines), even when it
# prints "BUG:", "WARNING:" or a fake timestamp, is not a crash.
. "$(dirname "$0")/tap.sh"
. "$LAB/scripts/lib.sh"
F=$LAB/scripts/tests/fixtures/console
# crash LOG WANT-REGEX DESCRIPTION
crash() { like "$(console_crash "$F/$1")" "$2" "$3"; }
crash panic-no-init.log '^Kernel panic - not syncing: No working init found' "a panic (captured boot)"
crash warn.log '^WARNING: CPU: 1 PID: 57 at kernel/rseq.c' "a WARN, by its WARNING: line"
crash soft-lockup.log '^watchdog: BUG: soft lockup - CPU#0' "a soft lockup"
crash rcu-stall.log '^rcu: INFO: rcu_preempt self-detected stall' "an RCU stall"
crash hung-task.log '^INFO: task lab-percpu:61 blocked for more than' "a hung task"
crash oops.log '^BUG: kernel NULL pointer dereference' "an oops, by its first line"
# Each of these is caught by one alternative of the matcher alone: with it gone, another line
# (the panic that follows) or nothing would come back instead.
crash gpf.log '^general protection fault, probably for non-canonical address' "a general protection fault (6.1's line)"
crash kernel-bug-at.log '^kernel BUG at mm/slub.c:435!$' "a BUG_ON, by its kernel BUG at line"
crash oops-first-line.log '^Oops: invalid opcode: 0000 \[#1\]' "an oops whose first line is its Oops: line (6.12)"
crash rcu-detected-stalls.log '^rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:$' "an RCU stall seen from another CPU (detected stalls)"
# A log whose very first line is the crash (a console captured from mid-boot), CRLF as QEMU
# writes it.
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '[    5.000000] Oops: general protection fault, probably for non-canonical address 0x1: 0000 [#1] SMP\r\n' > "$t/first.log"
like "$(console_crash "$t/first.log")" '^Oops: general protection fault.*SMP$' "an Oops on the log's first line, without its CR"
is "$(console_crash "$F/guest-prints-crash-words.log")" "" \
	"a guest printing BUG:, WARNING:, Kernel panic, a fake timestamped line: no crash (captured boot)"
is "$(console_crash "$F/clean.log")" "" "a clean boot: no crash"
is "$(console_crash "$F/no-such-file")" "" "no console log at all: nothing (the boot reports that)"
done_testing
