#include "memlimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

uint64_t meminfo_bytes(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10) * 1024;
		p += klen;
	}
	return 0;
}

uint64_t memlimit_margin(uint64_t memtotal)
{
	uint64_t tenth = memtotal / 10;

	return tenth > (1ull << 30) ? tenth : (1ull << 30);
}

/* Free room under this process's memory cgroup, v2 or v1; UINT64_MAX if unlimited. */
static uint64_t cgroup_free(void)
{
	char cg[4096], path[4352], val[64];
	uint64_t max, cur;
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096];
	const char *v2 = NULL, *v1 = NULL;

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "0::", 3) && !v2) {
			snprintf(cg, sizeof(cg), "%s", line + 3);
			v2 = cg;
		} else if (strstr(line, ":memory:")) {
			snprintf(cg, sizeof(cg), "%s", strstr(line, ":memory:") + 8);
			v1 = cg;
		}
	}
	fclose(f);
	if (v1) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", v1);
		if (read_text(path, val, sizeof(val)))
			return UINT64_MAX;
		max = strtoull(val, NULL, 10);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.usage_in_bytes", v1);
	} else if (v2) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", v2);
		if (read_text(path, val, sizeof(val)) || !strncmp(val, "max", 3))
			return UINT64_MAX;
		max = strtoull(val, NULL, 10);
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.current", v2);
	} else {
		return UINT64_MAX;
	}
	if (read_text(path, val, sizeof(val)))
		return UINT64_MAX;
	cur = strtoull(val, NULL, 10);
	return cur >= max ? 0 : max - cur;
}

int memlimit_read(struct memlimit *m)
{
	static char text[8192];
	uint64_t avail_room;

	memset(m, 0, sizeof(*m));
	if (read_text("/proc/meminfo", text, sizeof(text)))
		return -1;
	m->memtotal = meminfo_bytes(text, "MemTotal");
	m->memavailable = meminfo_bytes(text, "MemAvailable");
	m->margin = memlimit_margin(m->memtotal);
	m->cgroup_free = cgroup_free();

	avail_room = m->memavailable > m->margin ? m->memavailable - m->margin : 0;
	m->limit = avail_room;
	m->which = "MemAvailable less a margin of max(1G, 10% of MemTotal)";
	if (m->cgroup_free != UINT64_MAX && m->cgroup_free < m->limit + m->margin) {
		m->limit = m->cgroup_free > m->margin ? m->cgroup_free - m->margin : 0;
		m->which = "the memory cgroup's free room less the margin";
	}
	m->limit &= ~4095ull;
	return m->memtotal ? 0 : -1;
}
