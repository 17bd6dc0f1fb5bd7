/* Module B of the container test inputs. */
extern int a_add(int, int);
double b_scale = 1.5;

int b_twice(int x) { return a_add(x, x); }
double b_mul(double v) { return v * b_scale; }
