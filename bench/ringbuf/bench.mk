# SPDX-License-Identifier: MIT
# The per-CPU ring buffer bench (lab-ringbuf, the seed's LTTng-UST row): one static binary for
# the host and the guests, its rseq writer built against the kernel tree's selftests rseq
# helpers in place (lib/lab.mk's rseq_bench), and its stages on the host and in each variant's
# guest, run by bench/ringbuf/run (run_stages).

RINGBUF_SRCS := bench/ringbuf/ringbuf.c bench/ringbuf/ringbuf-buf.c $(LAB_MT_SRCS) $(LAB_LIB_SRCS)
$(eval $(call rseq_bench,ringbuf,RINGBUF))

# RINGBUF_ARGS passes options to lab-ringbuf (e.g. RINGBUF_ARGS="--reps 9 --threads 1,2").
$(eval $(call run_stages,ringbuf,RINGBUF,per-CPU ring buffer))
