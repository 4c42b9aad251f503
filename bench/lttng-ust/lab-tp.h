/* SPDX-License-Identifier: MIT */
/*
 * The lab's LTTng-UST tracepoint provider: one event of the seed's shape, a compact 32-bit
 * event header (LTTng's default for a stream's first events ids) and a uint32 payload.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER lab
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "lab-tp.h"

#if !defined(LAB_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LAB_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(lab, event, LTTNG_UST_TP_ARGS(uint32_t, payload),
			   LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint32_t, payload, payload)))

#endif

#include <lttng/tracepoint-event.h>
