/*
 * The stats tool's parsers read files by path, as compare.sh hands them run
 * directories; a fuzz input is put in an anonymous memory file and read
 * back through /proc/self/fd, so no file is left behind.
 */
#ifndef MMDELTA_FUZZ_INFILE_H
#define MMDELTA_FUZZ_INFILE_H
#include <stddef.h>
#include <stdint.h>

/* The path of a file holding exactly data[0..size); aborts on failure. */
const char *infile_write(const uint8_t *data, size_t size);

#endif
