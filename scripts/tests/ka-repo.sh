# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The known-answer repository, shared by compare-known-answer.t and compare-errors.t (sourced
# after tap.sh): build/tests/ka-linux, a git tree of Debian's linux-$KVER (commit 1), a
# commit adding exactly K empty iterations to the getcpu system call (commit 2, the main
# branch's HEAD) and, on branch ka-rseq from commit 1, one adding exactly K empty iterations
# to rseq's notify-resume handler, after its exiting-task check (the scheduler path: every
# return to user of a registered task that was preempted or got a signal runs it). ka_repo
# makes it when it is not there or not what is expected; its status says whether that worked.
K=1000
repo=$BUILD/tests/ka-linux
subj2="getcpu: $K empty iterations (lab known-answer test)"
subj3="rseq: $K empty iterations in notify-resume (lab known-answer test)"
src=$BUILD/src/linux-$KVER

# add_loop FILE DECL_AFTER LOOP_BEFORE: K empty iterations into FILE, its counter declared after
# the line DECL_AFTER and the loop before LOOP_BEFORE (each found once). FILE is a hard link
# to the pristine tree: a new file is written.
add_loop() {
	python3 - "$K" "$@" <<-'EOF'
	import os, sys
	k, p, decl, before = sys.argv[1:]
	s = open(p).read()
	for a in (decl, before):
	    assert s.count(a) == 1, '%s: %r not found once' % (p, a)
	s = s.replace(decl, decl + '\tunsigned int lab_i;\n')
	s = s.replace(before, ('\t/* The lab\'s known-answer test: exactly %s empty iterations. */\n'
	                       '\tfor (lab_i = 0; lab_i < %s; lab_i++)\n\t\tbarrier();\n\n') % (k, k) + before)
	os.unlink(p)
	open(p, 'w').write(s)
	EOF
}

# make_repo: commit 1 = the pristine tree (hard links: cheap), commit 2 = the getcpu loop,
# branch ka-rseq = commit 1 + the notify-resume loop. Fixed author, committer and dates: every
# clone makes the same commits, so the kernels built from them are the same store entries (a
# second clone's test only boots).
make_repo() {
	local -x GIT_AUTHOR_DATE='2018-06-02 00:00:00 +0000' GIT_COMMITTER_DATE='2018-06-02 00:00:00 +0000'
	local -x GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost
	rm -rf "$repo"; mkdir -p "$(dirname "$repo")"
	cp -al "$src" "$repo" && rm -f "$repo/.lab-unpacked" || return 1
	(
		cd "$repo" && git init -q && git add -f . &&
		git -c user.name=lab -c user.email=lab@localhost commit -qm "linux-$KVER (Debian linux-source-$KVER)" &&
		add_loop kernel/sys.c $'\tint cpu = raw_smp_processor_id();\n' $'\tif (cpup)\n' &&
		git -c user.name=lab -c user.email=lab@localhost commit -qam "$subj2" &&
		main=$(git symbolic-ref --short HEAD) &&
		git checkout -q -b ka-rseq HEAD~1 &&
		add_loop kernel/rseq.c $'\tstruct task_struct *t = current;\n\tint ret, sig;\n' $'\t/*\n\t * regs is NULL' &&
		git -c user.name=lab -c user.email=lab@localhost commit -qam "$subj3" &&
		git checkout -q "$main"
	) >/dev/null
}
ka_repo() {
	if [ "$(git -C "$repo" log -1 --format=%s 2>/dev/null)" = "$subj2" ] &&
	   [ "$(git -C "$repo" diff --stat HEAD~1 HEAD 2>/dev/null | tail -n 1)" = " 1 file changed, 5 insertions(+)" ] &&
	   [ "$(git -C "$repo" log -1 --format=%s ka-rseq 2>/dev/null)" = "$subj3" ] &&
	   [ "$(git -C "$repo" rev-parse ka-rseq~1 2>/dev/null)" = "$(git -C "$repo" rev-parse HEAD~1 2>/dev/null)" ]; then
		return 0
	fi
	make_repo
}
