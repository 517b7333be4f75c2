#include "cncurses.h"
#include "library_loading.h"
#include <pthread.h>

static library_loading loading = LIBRARY_LOADING("libncursesw");
static SCREEN *(*p_newterm)(const char *, FILE *, FILE *);
static void (*p_delscreen)(SCREEN *);
static WINDOW **p_stdscr;
static int *p_colors, *p_color_pairs;
static int (*p_raw)(void), (*p_noecho)(void), (*p_nonl)(void);
static int (*p_keypad)(WINDOW *, bool), (*p_nodelay)(WINDOW *, bool), (*p_meta)(WINDOW *, bool);
static bool (*p_has_colors)(void);
static int (*p_start_color)(void), (*p_use_default_colors)(void);
static int (*p_init_pair)(short, short, short);
static int (*p_getmaxx)(WINDOW *), (*p_getmaxy)(WINDOW *);
static int (*p_endwin)(void);
static int (*p_clearok)(WINDOW *, bool);
static int (*p_refresh)(void);
static int (*p_resizeterm)(int, int);
static int (*p_wget_wch)(WINDOW *, wint_t *);
static int (*p_waddnstr)(WINDOW *, const char *, int);
static int (*p_wattr_set)(WINDOW *, attr_t, short, void *);
static int (*p_curs_set)(int);
static int (*p_wmove)(WINDOW *, int, int);
static int (*p_wnoutrefresh)(WINDOW *);
static int (*p_doupdate)(void);

static void load(void) {
    if (!library_open(&loading, "libncursesw.so.6")) return;
#define SYM(var, name) if (!library_symbol(&loading, name, (void **)&var)) return;
    SYM(p_newterm, "newterm") SYM(p_delscreen, "delscreen") SYM(p_stdscr, "stdscr")
    SYM(p_colors, "COLORS") SYM(p_color_pairs, "COLOR_PAIRS")
    SYM(p_raw, "raw") SYM(p_noecho, "noecho") SYM(p_nonl, "nonl")
    SYM(p_keypad, "keypad") SYM(p_nodelay, "nodelay") SYM(p_meta, "meta")
    SYM(p_has_colors, "has_colors") SYM(p_start_color, "start_color") SYM(p_use_default_colors, "use_default_colors")
    SYM(p_init_pair, "init_pair") SYM(p_getmaxx, "getmaxx") SYM(p_getmaxy, "getmaxy")
    SYM(p_endwin, "endwin") SYM(p_clearok, "clearok") SYM(p_refresh, "refresh") SYM(p_resizeterm, "resizeterm")
    SYM(p_wget_wch, "wget_wch") SYM(p_waddnstr, "waddnstr") SYM(p_wattr_set, "wattr_set")
    SYM(p_curs_set, "curs_set") SYM(p_wmove, "wmove") SYM(p_wnoutrefresh, "wnoutrefresh") SYM(p_doupdate, "doupdate")
#undef SYM
    library_loaded(&loading);
}

int cncurses_load(void) { return library_load(&loading, load); }
const char *cncurses_load_error(void) { cncurses_load(); return library_error(&loading); }

#define LOADED_OR(fail) if (cncurses_load()) return fail
SCREEN *cncurses_newterm(const char *type, FILE *output, FILE *input) { LOADED_OR(0); return p_newterm(type, output, input); }
void cncurses_delscreen(SCREEN *screen) { if (!cncurses_load()) p_delscreen(screen); }
WINDOW *cncurses_stdscr(void) { LOADED_OR(0); return *p_stdscr; }
int cncurses_colors(void) { LOADED_OR(0); return *p_colors; }
int cncurses_color_pairs(void) { LOADED_OR(0); return *p_color_pairs; }
int cncurses_raw(void) { LOADED_OR(ERR); return p_raw(); }
int cncurses_noecho(void) { LOADED_OR(ERR); return p_noecho(); }
int cncurses_nonl(void) { LOADED_OR(ERR); return p_nonl(); }
int cncurses_keypad(WINDOW *window, bool on) { LOADED_OR(ERR); return p_keypad(window, on); }
int cncurses_nodelay(WINDOW *window, bool on) { LOADED_OR(ERR); return p_nodelay(window, on); }
int cncurses_meta(WINDOW *window, bool on) { LOADED_OR(ERR); return p_meta(window, on); }
bool cncurses_has_colors(void) { LOADED_OR(false); return p_has_colors(); }
int cncurses_start_color(void) { LOADED_OR(ERR); return p_start_color(); }
int cncurses_use_default_colors(void) { LOADED_OR(ERR); return p_use_default_colors(); }
int cncurses_init_pair(short pair, short foreground, short background) { LOADED_OR(ERR); return p_init_pair(pair, foreground, background); }
int cncurses_getmaxx(WINDOW *window) { LOADED_OR(ERR); return p_getmaxx(window); }
int cncurses_getmaxy(WINDOW *window) { LOADED_OR(ERR); return p_getmaxy(window); }
int cncurses_endwin(void) { LOADED_OR(ERR); return p_endwin(); }
int cncurses_clearok(WINDOW *window, bool on) { LOADED_OR(ERR); return p_clearok(window, on); }
int cncurses_refresh(void) { LOADED_OR(ERR); return p_refresh(); }
int cncurses_resizeterm(int rows, int columns) { LOADED_OR(ERR); return p_resizeterm(rows, columns); }
int cncurses_wget_wch(WINDOW *window, wint_t *character) { LOADED_OR(ERR); return p_wget_wch(window, character); }
int cncurses_mvwaddstr(WINDOW *window, int row, int column, const char *text) {
    LOADED_OR(ERR);
    return p_wmove(window, row, column) == ERR ? ERR : p_waddnstr(window, text, -1);
}
int cncurses_wattr_set(WINDOW *window, attr_t attributes, short pair) { LOADED_OR(ERR); return p_wattr_set(window, attributes, pair, 0); }
int cncurses_curs_set(int visibility) { LOADED_OR(ERR); return p_curs_set(visibility); }
int cncurses_wmove(WINDOW *window, int row, int column) { LOADED_OR(ERR); return p_wmove(window, row, column); }
int cncurses_wnoutrefresh(WINDOW *window) { LOADED_OR(ERR); return p_wnoutrefresh(window); }
int cncurses_doupdate(void) { LOADED_OR(ERR); return p_doupdate(); }
