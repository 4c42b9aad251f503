/* SPDX-License-Identifier: MIT */
/*
 * Find a symbol in the vDSO: the ELF image the kernel maps into every process, whose address
 * the auxiliary vector gives (AT_SYSINFO_EHDR). Walk its dynamic section to the symbol and
 * string tables; the symbol count comes from DT_HASH, or from DT_GNU_HASH when that is all.
 */
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>

#include "lab/vdso.h"

/* Number of symbols a DT_GNU_HASH table covers: past the last chain of the highest bucket. */
static uint32_t gnu_hash_count(const uint32_t *h)
{
	uint32_t nbuckets = h[0], symoffset = h[1], bloom = h[2];
	const uint32_t *buckets = h + 4 + bloom * (sizeof(ElfW(Addr)) / 4);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t last = 0;

	for (uint32_t i = 0; i < nbuckets; i++)
		if (buckets[i] > last)
			last = buckets[i];
	if (last < symoffset)
		return symoffset;
	while (!(chain[last - symoffset] & 1))
		last++;
	return last + 1;
}

void *lab_vdso_sym(const char *name)
{
	const char *base = (const char *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const void *)base;
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;
	const uint32_t *hash = NULL, *gnu = NULL;
	uintptr_t bias = 0;
	uint32_t count;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return NULL;
	ph = (const void *)(base + eh->e_phoff);
	/* The image is mapped whole: addresses in it are its link addresses plus a bias. */
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0)
			bias = (uintptr_t)base - ph[i].p_vaddr;
		else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(base + ph[i].p_offset);
	}
	if (!dyn)
		return NULL;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const void *p = (const void *)(dyn->d_un.d_ptr + bias);

		if (dyn->d_tag == DT_SYMTAB)
			sym = p;
		else if (dyn->d_tag == DT_STRTAB)
			str = p;
		else if (dyn->d_tag == DT_HASH)
			hash = p;
		else if (dyn->d_tag == DT_GNU_HASH)
			gnu = p;
	}
	if (!sym || !str || (!hash && !gnu))
		return NULL;
	count = hash ? hash[1] : gnu_hash_count(gnu);
	for (uint32_t i = 0; i < count; i++) {
		if (sym[i].st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym[i].st_info) /* same for ELF32 */ != STT_FUNC)
			continue;
		if (!strcmp(str + sym[i].st_name, name))
			return (void *)(sym[i].st_value + bias);
	}
	return NULL;
}
