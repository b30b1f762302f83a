/* tools/config.c: the config line parser behind tools/mmconfig. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "unit.h"

static enum config_line line(const char *s, char *key, char *value, const char **why)
{
	return config_parse_line(s, key, value, why);
}

TEST(config_reads_key_value_pairs_with_blanks_trimmed)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why;

	(void)state;
	assert_int_equal(line("SIZE=56G", key, value, &why), CONFIG_PAIR);
	assert_string_equal(key, "SIZE");
	assert_string_equal(value, "56G");
	assert_int_equal(line("  THREADS =  1 2 4  \r", key, value, &why), CONFIG_PAIR);
	assert_string_equal(key, "THREADS");
	assert_string_equal(value, "1 2 4");
	assert_int_equal(line("DESCRIPTION=", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "");
	assert_int_equal(line("A1_B=x=y", key, value, &why), CONFIG_PAIR);
	assert_string_equal(key, "A1_B");
	assert_string_equal(value, "x=y");
}

/* A "#" after a blank starts a comment, as in the shell; elsewhere it is text. */
TEST(config_values_end_at_a_trailing_comment)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why;

	(void)state;
	assert_int_equal(line("SIZE=256M # a quarter", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "256M");
	assert_int_equal(line("SIZE=1G 4G\t# a sweep", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "1G 4G");
	assert_int_equal(line("DESCRIPTION=bug#12 fixed ##", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "bug#12 fixed");
	assert_int_equal(line("SIZE=#x", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "#x");
	assert_int_equal(line("SIZE=   # nothing", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "");
}

TEST(config_skips_comments_and_blank_lines)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why;

	(void)state;
	assert_int_equal(line("", key, value, &why), CONFIG_BLANK);
	assert_int_equal(line("   \t", key, value, &why), CONFIG_BLANK);
	assert_int_equal(line("# SIZE=1G", key, value, &why), CONFIG_BLANK);
	assert_int_equal(line("  # indented comment", key, value, &why), CONFIG_BLANK);
}

TEST(config_rejects_malformed_lines)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why;

	(void)state;
	assert_int_equal(line("SIZE", key, value, &why), CONFIG_ERROR);
	assert_string_equal(why, "expected KEY=VALUE");
	assert_int_equal(line("size=1G", key, value, &why), CONFIG_ERROR);
	assert_string_equal(why, "a key is upper-case letters, digits and _");
	assert_int_equal(line("=1G", key, value, &why), CONFIG_ERROR);
	assert_string_equal(why, "empty key");
	assert_int_equal(line("MY KEY=1", key, value, &why), CONFIG_ERROR);
	assert_string_equal(why, "blank inside the key");
	assert_int_equal(line("1SIZE=1", key, value, &why), CONFIG_ERROR);
	assert_int_equal(line("export SIZE=1", key, value, &why), CONFIG_ERROR);
	assert_int_equal(line("SIZE=a\tb", key, value, &why), CONFIG_ERROR);
	assert_string_equal(why, "control character in value");
}

/* Parsed, never sourced: shell syntax in a value is only text. */
TEST(config_values_with_shell_syntax_are_plain_text)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why;

	(void)state;
	unlink("/tmp/mmdelta-pwned");
	assert_int_equal(line("SIZE=$(touch /tmp/mmdelta-pwned)", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "$(touch /tmp/mmdelta-pwned)");
	assert_int_equal(line("SIZE=`id`; rm -rf /", key, value, &why), CONFIG_PAIR);
	assert_string_equal(value, "`id`; rm -rf /");
	assert_int_equal(access("/tmp/mmdelta-pwned", F_OK), -1);
}

TEST(config_keys_are_checked_against_the_allowed_list)
{
	(void)state;
	assert_true(config_key_allowed("SIZE", "BENCH,SIZE,THP"));
	assert_true(config_key_allowed("THP", "BENCH,SIZE,THP"));
	assert_false(config_key_allowed("SIZ", "BENCH,SIZE,THP"));
	assert_false(config_key_allowed("THP_DEFRAG", "BENCH,SIZE,THP"));
	assert_true(config_key_allowed("ANY", "*"));
}
