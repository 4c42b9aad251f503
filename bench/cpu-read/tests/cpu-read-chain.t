#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dependent ("-dep") rows really are dependent: in the built lab-cpuread every chain_*
# function (one per dependent row) keeps the chain's shift (shr $20), and the shift's result,
# followed through register copies and adds around the loop, reaches the next read's input: a
# memory address, lsl's selector, a call's pointer argument, or (the empty chain) the next shift.
# A compiler that folded the shift (it knows a read is masked to 12 bits) or a chain that fed
# nothing would let the reads overlap and the row would show throughput, not latency.
. "$(dirname "$0")/../../../scripts/tests/tap.sh"
bin=$BUILD/guest/bin/lab-cpuread
[ -x "$bin" ] || { echo "1..1"; echo "not ok 1 - $bin is built"; exit 1; }
if ! command -v objdump >/dev/null; then
	skip "no objdump (binutils)" "dependent rows' code"; done_testing; exit
fi
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
objdump -d --no-show-raw-insn "$bin" > "$t/dis" 2>/dev/null
ok $? "objdump disassembles lab-cpuread"

chains=$(sed -n 's/^[0-9a-f]* <\(chain_[a-z_]*\)>:$/\1/p' "$t/dis")
ndeps=$("$bin" --list | grep -c -- '^[^ ]*-dep ')
is "$(printf '%s\n' "$chains" | grep -c .)" "$ndeps" "one chain function per dependent row ($ndeps)"

# chain FUNCTION: "fed: how" when the shift's result reaches the next read, else why not.
chain() {
	awk -v f="$1" '$0 ~ "^[0-9a-f]+ <" f ">:$" {on = 1; next} on && /^$/ {exit} on' "$t/dis" |
	perl -e '
	sub fam { my $r = shift; $r =~ s/^%//;
		return "r$1" if $r =~ /^r(\d+)[dwb]?$/;
		my %m = (ax => "rax", bx => "rbx", cx => "rcx", dx => "rdx", si => "rsi",
			di => "rdi", bp => "rbp", sp => "rsp");
		$r =~ s/^[er]//; $r =~ s/l$/x/ if length($r) == 2 && $r =~ /^[abcd]l$/;
		$r =~ s/^(si|di|bp|sp)l$/$1/; return $m{$r} // $r }
	my (@ins, $s);
	while (<>) {
		next unless /^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$/;
		push @ins, [hex $1, $2, $3];
		$s = $#ins if !defined $s && $2 eq "shr" && $3 =~ /^\$0x14,%(\w+)$/;
	}
	defined $s or do { print "no shr \$0x14: the chain step was folded away\n"; exit };
	my ($dst) = $ins[$s][2] =~ /,(%\w+)$/;
	my %t = (fam($dst) => 1);
	# The loop: the first backward jump after the shift to a point at or before it.
	my ($back, $top);
	for my $i ($s + 1 .. $#ins) {
		next unless $ins[$i][1] =~ /^j/ && $ins[$i][2] =~ /^([0-9a-f]+) </;
		if (hex($1) <= $ins[$s][0]) { $back = $i; $top = hex $1; last }
	}
	defined $back or do { print "no loop around the shift\n"; exit };
	my ($ti) = grep { $ins[$_][0] == $top } 0 .. $#ins;
	my @order = (($s + 1) .. $back, $ti .. $s);
	for my $i (@order) {
		my ($op, $args) = @{$ins[$i]}[1, 2];
		my @regs = map { fam($_) } $args =~ /(%\w+)/g;
		for my $m ($args =~ /\(([^)]*)\)/g) {
			for (map { fam($_) } $m =~ /(%\w+)/g) {
				if ($t{$_}) { print "fed: address of \"$op $args\"\n"; exit }
			}
		}
		if ($op eq "lsl" && $t{$regs[0]}) { print "fed: lsl selector\n"; exit }
		if ($op eq "shr" && $args =~ /^\$0x14,/ && $t{$regs[0]}) { print "fed: next shift\n"; exit }
		if ($op =~ /^call/ && ($t{rdi} || $t{rsi})) { print "fed: call argument\n"; exit }
		next unless $args =~ /,(%\w+)$/;
		my $d = fam($1);
		my ($src) = $args =~ /^(%\w+),/;
		my $from = defined $src && $t{fam($src)};
		if ($op =~ /^(mov|lea)/) { $from ? ($t{$d} = 1) : delete $t{$d} }
		elsif ($op =~ /^xor/ && defined $src && fam($src) eq $d) { delete $t{$d} }
		elsif ($op =~ /^(add|or|sub)/ && $from) { $t{$d} = 1 }
	}
	print "the shift result reaches no read\n";'
}

for f in $chains; do
	why=$(chain "$f")
	like "$why" '^fed: ' "$f: the last result feeds the next read (${why:-nothing})"
done
done_testing
