/*
 * The reference for the harness-overhead check: the least program that
 * times the same munlock() as bench/timedmunlock, with none of the harness.
 *   minimunlock BYTES  -> prints the munlock time in seconds
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	size_t size;
	void *p;

	if (argc != 2)
		return fprintf(stderr, "usage: minimunlock BYTES\n"), 2;
	size = strtoull(argv[1], NULL, 10);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (munlock(p, size))
		return perror("munlock"), 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.9f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
