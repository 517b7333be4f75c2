#include "cchafa.h"
#include <chafa.h>
#include "library_loading.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static library_loading loading = LIBRARY_LOADING("libchafa");
// __typeof__ keeps each pointer's type the header's own.
#define POINTER(name) static __typeof__(&name) p_##name;
POINTER(chafa_symbol_map_new)
POINTER(chafa_symbol_map_add_by_tags)
POINTER(chafa_symbol_map_remove_by_tags)
POINTER(chafa_symbol_map_unref)
POINTER(chafa_canvas_config_new)
POINTER(chafa_canvas_config_unref)
POINTER(chafa_canvas_config_set_geometry)
POINTER(chafa_canvas_config_set_cell_geometry)
POINTER(chafa_canvas_config_set_canvas_mode)
POINTER(chafa_canvas_config_set_pixel_mode)
POINTER(chafa_canvas_config_set_symbol_map)
POINTER(chafa_canvas_new)
POINTER(chafa_canvas_unref)
POINTER(chafa_canvas_draw_all_pixels)
POINTER(chafa_canvas_get_char_at)
POINTER(chafa_canvas_get_raw_colors_at)
POINTER(chafa_canvas_print)
POINTER(chafa_term_db_get_default)
POINTER(chafa_term_db_detect)
POINTER(chafa_term_info_unref)
POINTER(g_string_free)
#undef POINTER

static void load(void) {
    if (!library_open(&loading, "libchafa.so.0")) return;
    // g_string_free is GLib's: a symbol of libchafa's handle is looked up in the libraries it needs.
#define SYM(name) if (!library_symbol(&loading, #name, (void **)&p_##name)) return;
    SYM(chafa_symbol_map_new) SYM(chafa_symbol_map_add_by_tags) SYM(chafa_symbol_map_remove_by_tags)
    SYM(chafa_symbol_map_unref) SYM(chafa_canvas_config_new) SYM(chafa_canvas_config_unref)
    SYM(chafa_canvas_config_set_geometry) SYM(chafa_canvas_config_set_cell_geometry)
    SYM(chafa_canvas_config_set_canvas_mode) SYM(chafa_canvas_config_set_pixel_mode)
    SYM(chafa_canvas_config_set_symbol_map) SYM(chafa_canvas_new) SYM(chafa_canvas_unref)
    SYM(chafa_canvas_draw_all_pixels) SYM(chafa_canvas_get_char_at) SYM(chafa_canvas_get_raw_colors_at)
    SYM(chafa_canvas_print) SYM(chafa_term_db_get_default) SYM(chafa_term_db_detect)
    SYM(chafa_term_info_unref) SYM(g_string_free)
#undef SYM
    library_loaded(&loading);
}

int cchafa_load(void) { return library_load(&loading, load); }
const char *cchafa_load_error(void) { cchafa_load(); return library_error(&loading); }

static int valid(const uint8_t *rgba, int width, int height, int columns, int rows) {
    return rgba && width > 0 && height > 0 && columns > 0 && rows > 0
        && width <= (1 << 16) && height <= (1 << 16) && columns <= 4096 && rows <= 4096;
}

/// A canvas with `pixels` drawn on it; the config is the caller's to unref.
static ChafaCanvas *draw(ChafaCanvasConfig *config, const uint8_t *rgba, int width, int height) {
    ChafaCanvas *canvas = p_chafa_canvas_new(config);
    if (canvas) p_chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, width * 4);
    return canvas;
}

int cchafa_draw_symbols(const uint8_t *rgba, int width, int height, int columns, int rows,
                        enum cchafa_colors colors, enum cchafa_symbols symbols,
                        uint32_t *code_points, int32_t *foregrounds, int32_t *backgrounds) {
    if (cchafa_load() || !valid(rgba, width, height, columns, rows) || !code_points || !foregrounds || !backgrounds) return -1;
    ChafaCanvasMode mode;
    switch (colors) {
    case CCHAFA_COLORS_TRUECOLOR: mode = CHAFA_CANVAS_MODE_TRUECOLOR; break;
    case CCHAFA_COLORS_240: mode = CHAFA_CANVAS_MODE_INDEXED_240; break;
    case CCHAFA_COLORS_16: mode = CHAFA_CANVAS_MODE_INDEXED_16; break;
    case CCHAFA_COLORS_8: mode = CHAFA_CANVAS_MODE_INDEXED_8; break;
    default: mode = CHAFA_CANVAS_MODE_FGBG; break;
    }
    ChafaSymbolMap *map = p_chafa_symbol_map_new();
    if (symbols == CCHAFA_SYMBOLS_ASCII) {
        p_chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_ASCII);
    } else {
        p_chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER | CHAFA_SYMBOL_TAG_SPACE);
        // A cell holds one column; inverted symbols would need reverse video.
        p_chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_WIDE | CHAFA_SYMBOL_TAG_INVERTED);
    }
    ChafaCanvasConfig *config = p_chafa_canvas_config_new();
    p_chafa_canvas_config_set_geometry(config, columns, rows);
    p_chafa_canvas_config_set_canvas_mode(config, mode);
    p_chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS);
    p_chafa_canvas_config_set_symbol_map(config, map);
    ChafaCanvas *canvas = draw(config, rgba, width, height);
    p_chafa_canvas_config_unref(config);
    p_chafa_symbol_map_unref(map);
    if (!canvas) return -1;
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < columns; x++) {
            size_t i = (size_t)y * columns + x;
            gint fg = -1, bg = -1;
            code_points[i] = p_chafa_canvas_get_char_at(canvas, x, y);
            // Raw: a palette index in the indexed modes, packed RGB in true colour.
            p_chafa_canvas_get_raw_colors_at(canvas, x, y, &fg, &bg);
            foregrounds[i] = mode == CHAFA_CANVAS_MODE_FGBG ? -1 : fg;
            backgrounds[i] = mode == CHAFA_CANVAS_MODE_FGBG ? -1 : bg;
        }
    }
    p_chafa_canvas_unref(canvas);
    return 0;
}

char *cchafa_draw_pixels(const uint8_t *rgba, int width, int height, int columns, int rows,
                         int cell_width, int cell_height, enum cchafa_pixels protocol, size_t *length) {
    if (cchafa_load() || !valid(rgba, width, height, columns, rows) || !length
        || cell_width <= 0 || cell_height <= 0 || cell_width > 1024 || cell_height > 1024) return 0;
    // chafa prints with the sequences of the terminal it detects from an
    // environment: one that names a terminal speaking the protocol asked for.
    gchar *kitty[] = { "TERM=xterm-kitty", 0 };
    gchar *sixel[] = { "TERM=mlterm", 0 };
    ChafaTermInfo *info = p_chafa_term_db_detect(p_chafa_term_db_get_default(), protocol == CCHAFA_PIXELS_KITTY ? kitty : sixel);
    if (!info) return 0;
    ChafaCanvasConfig *config = p_chafa_canvas_config_new();
    p_chafa_canvas_config_set_geometry(config, columns, rows);
    p_chafa_canvas_config_set_cell_geometry(config, cell_width, cell_height);
    p_chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
    p_chafa_canvas_config_set_pixel_mode(config, protocol == CCHAFA_PIXELS_KITTY ? CHAFA_PIXEL_MODE_KITTY : CHAFA_PIXEL_MODE_SIXELS);
    ChafaCanvas *canvas = draw(config, rgba, width, height);
    p_chafa_canvas_config_unref(config);
    char *bytes = 0;
    if (canvas) {
        GString *printed = p_chafa_canvas_print(canvas, info);
        if (printed && printed->len > 0 && (bytes = malloc(printed->len))) {
            memcpy(bytes, printed->str, printed->len);
            *length = printed->len;
        }
        if (printed) p_g_string_free(printed, TRUE);
        p_chafa_canvas_unref(canvas);
    }
    p_chafa_term_info_unref(info);
    return bytes;
}

void cchafa_free(char *bytes) { free(bytes); }
