/* Second-level header: a warning two includes deep. */
static int b_value = 1 / 0;
