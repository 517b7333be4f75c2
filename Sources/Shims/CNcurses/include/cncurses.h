// Why this shim exists: ncursesw (Debian libncurses-dev) draws the chat view, but
// linking it, with its libtinfo, costs every chatctl run start-up time (`--version`
// included) while only `chatctl chat` needs it. The shim loads it with dlopen on
// first use, as CMagic does libmagic; every ncurses function the view calls is
// reached through it. Its attributes and colour pairs are macros Swift cannot
// import: each has a function here.
#ifndef CNCURSES_H
#define CNCURSES_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdio.h>
#include <ncursesw/curses.h>

/// Loads libncursesw (once). Returns 0 on success; otherwise every call below fails
/// (NULL / ERR) and cncurses_load_error() says why.
int cncurses_load(void);
const char *cncurses_load_error(void);

SCREEN *cncurses_newterm(const char *type, FILE *output, FILE *input);
void cncurses_delscreen(SCREEN *screen);
WINDOW *cncurses_stdscr(void);
int cncurses_colors(void);
int cncurses_color_pairs(void);
int cncurses_raw(void);
int cncurses_noecho(void);
int cncurses_nonl(void);
int cncurses_keypad(WINDOW *window, bool on);
int cncurses_nodelay(WINDOW *window, bool on);
int cncurses_meta(WINDOW *window, bool on);
bool cncurses_has_colors(void);
int cncurses_start_color(void);
int cncurses_use_default_colors(void);
int cncurses_init_pair(short pair, short foreground, short background);
int cncurses_getmaxx(WINDOW *window);
int cncurses_getmaxy(WINDOW *window);
int cncurses_endwin(void);
int cncurses_clearok(WINDOW *window, bool on);
int cncurses_refresh(void);
int cncurses_resizeterm(int rows, int columns);
int cncurses_wget_wch(WINDOW *window, wint_t *character);
/// wmove, then waddnstr of all of `text` (mvwaddstr is a macro).
int cncurses_mvwaddstr(WINDOW *window, int row, int column, const char *text);
int cncurses_wattr_set(WINDOW *window, attr_t attributes, short pair);
int cncurses_curs_set(int visibility);
int cncurses_wmove(WINDOW *window, int row, int column);
int cncurses_wnoutrefresh(WINDOW *window);
int cncurses_doupdate(void);

static inline attr_t cncurses_a_bold(void) { return A_BOLD; }
static inline attr_t cncurses_a_dim(void) { return A_DIM; }
static inline attr_t cncurses_a_reverse(void) { return A_REVERSE; }
static inline attr_t cncurses_a_underline(void) { return A_UNDERLINE; }
#endif
