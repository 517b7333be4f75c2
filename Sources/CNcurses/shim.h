// ncursesw for the chat view's terminal edge. Its attributes, colour pairs,
// mouse buttons and `stdscr` are macros Swift cannot import: each has a function here.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

static inline WINDOW *chatctl_stdscr(void) { return stdscr; }
static inline int chatctl_colors(void) { return COLORS; }
static inline int chatctl_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t chatctl_a_bold(void) { return A_BOLD; }
static inline attr_t chatctl_a_dim(void) { return A_DIM; }
static inline attr_t chatctl_a_reverse(void) { return A_REVERSE; }
static inline attr_t chatctl_a_underline(void) { return A_UNDERLINE; }
static inline int chatctl_attr_set(attr_t attributes, short pair) { return wattr_set(stdscr, attributes, pair, NULL); }
static inline mmask_t chatctl_wheel_up(void) { return BUTTON4_PRESSED; }
static inline mmask_t chatctl_wheel_down(void) { return BUTTON5_PRESSED; }
