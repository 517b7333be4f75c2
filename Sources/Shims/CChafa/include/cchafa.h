// Why this shim exists: chafa (Debian libchafa-dev) draws image previews as
// terminal symbols, sixels or kitty graphics. Linking it would load libchafa,
// GLib and PCRE2 on every chatctl run (`--version` included) while only
// `chatctl chat` showing an image needs them, so the shim loads libchafa with
// dlopen on first use (as CMagic does libmagic), and a machine without it still
// runs chatctl, without previews. Its API is narrow and plain C: no GLib type
// reaches Swift, and a canvas lives only inside one call.
#ifndef CCHAFA_H
#define CCHAFA_H
#include <stddef.h>
#include <stdint.h>

/// Loads libchafa (once). Returns 0 on success; otherwise every call below fails
/// (-1 / NULL) and cchafa_load_error() says why.
int cchafa_load(void);
const char *cchafa_load_error(void);

/// The colours a symbol canvas may use (chafa's canvas modes).
enum cchafa_colors {
    CCHAFA_COLORS_TRUECOLOR = 0,  ///< packed 0xRRGGBB
    CCHAFA_COLORS_240 = 1,        ///< palette indices 16–255 (the 240 that terminals do not theme)
    CCHAFA_COLORS_16 = 2,         ///< palette indices 0–15
    CCHAFA_COLORS_NONE = 3,       ///< the terminal's own foreground and background: shapes only
    CCHAFA_COLORS_8 = 4,          ///< palette indices 0–7
};

/// The symbols a symbol canvas may use.
enum cchafa_symbols {
    CCHAFA_SYMBOLS_UNICODE = 0,   ///< block elements, box drawing and space, one column wide each
    CCHAFA_SYMBOLS_ASCII = 1,     ///< printable ASCII only
};

/// Draws `width`×`height` RGBA pixels (unassociated alpha, rows packed) into a
/// `columns`×`rows` symbol canvas and copies out each cell, row by row: its code
/// point (0 for none) and its foreground and background as chafa gives them in
/// `colors`'s terms, -1 for the terminal's default. Each array holds
/// columns×rows entries. Returns 0, or -1 (libchafa missing, or bad arguments).
int cchafa_draw_symbols(const uint8_t *rgba, int width, int height, int columns, int rows,
                        enum cchafa_colors colors, enum cchafa_symbols symbols,
                        uint32_t *code_points, int32_t *foregrounds, int32_t *backgrounds);

/// The pixel graphics protocols.
enum cchafa_pixels {
    CCHAFA_PIXELS_SIXEL = 0,
    CCHAFA_PIXELS_KITTY = 1,
};

/// Draws `width`×`height` RGBA pixels into a `columns`×`rows` canvas of cells of
/// `cell_width`×`cell_height` pixels, and prints it in `protocol`'s escape
/// sequences (chafa_canvas_print). Returns the bytes (free them with
/// cchafa_free) and sets `length`, or NULL.
char *cchafa_draw_pixels(const uint8_t *rgba, int width, int height, int columns, int rows,
                         int cell_width, int cell_height, enum cchafa_pixels protocol, size_t *length);
void cchafa_free(char *bytes);
#endif
