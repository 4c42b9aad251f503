/* SPDX-License-Identifier: MIT */
#ifndef LAB_CACHELINE_H
#define LAB_CACHELINE_H

/*
 * The one line size every bench pads to: what different threads or CPUs write lives on
 * lines of its own, so a scaling figure shows the strategy, not false sharing. 128 bytes,
 * two 64-byte lines: x86's adjacent-line prefetcher moves lines in 128-byte pairs (and some
 * arm64 cores have 128-byte lines).
 */
#define LAB_CACHE_LINE_SHIFT 7
#define LAB_CACHE_LINE (1 << LAB_CACHE_LINE_SHIFT)

#endif
