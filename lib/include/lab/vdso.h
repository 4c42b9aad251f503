/* SPDX-License-Identifier: MIT */
/* Look up a function in the vDSO image the kernel maps (found through the auxiliary vector). */
#ifndef LAB_VDSO_H
#define LAB_VDSO_H

/* Address of the defined symbol NAME in the vDSO, or NULL (no vDSO, no such symbol). */
void *lab_vdso_sym(const char *name);

#endif
