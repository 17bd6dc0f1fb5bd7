// Serialized-diagnostics input (C++): template instantiation notes, overload candidate
// notes, a deprecated attribute with a fix-it, and errors in a class.
#include <cstddef>

template <typename T> struct Box {
  T value;
  int size() const { return value.size(); }   // error in instantiation
};

void take(int);
void take(double, int);
void take(const char *, std::size_t);

[[deprecated("use fresh()")]] int stale();

struct Base { virtual void run(int); virtual ~Base(); };
struct Derived : Base { void run(long); };    // -Woverloaded-virtual

int main() {
  Box<int> b{1};
  int n = b.size();                           // in instantiation of member function
  take(nullptr, nullptr, nullptr);            // no matching function: candidate notes
  int s = stale();                            // deprecated
  unsigned u = -1;
  if (u < n) return 1;                        // -Wsign-compare
  return s
}
