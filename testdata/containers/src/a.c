/* Module A of the container test inputs. */
int a_counter = 3;
static const char a_name[] = "module a";

int a_add(int x, int y) { return x + y + a_counter; }
const char *a_label(void) { return a_name; }
