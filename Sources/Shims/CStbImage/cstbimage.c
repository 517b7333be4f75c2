#include "cstbimage.h"
#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>
#include "library_loading.h"
#include <pthread.h>

static library_loading loading = LIBRARY_LOADING("libstb");
// __typeof__ keeps each pointer's type the header's own.
static __typeof__(&stbi_info_from_memory) p_info;
static __typeof__(&stbi_load_from_memory) p_load;
static __typeof__(&stbi_image_free) p_free;
static __typeof__(&stbi_failure_reason) p_reason;
static __typeof__(&stbir_resize_uint8_srgb) p_resize;

static void load(void) {
    if (!library_open(&loading, "libstb.so.0")) return;
#define SYM(var, name) if (!library_symbol(&loading, name, (void **)&var)) return;
    SYM(p_info, "stbi_info_from_memory")
    SYM(p_load, "stbi_load_from_memory")
    SYM(p_free, "stbi_image_free")
    SYM(p_reason, "stbi_failure_reason")
    SYM(p_resize, "stbir_resize_uint8_srgb")
#undef SYM
    library_loaded(&loading);
}

int cstb_load(void) { return library_load(&loading, load); }
const char *cstb_load_error(void) { cstb_load(); return library_error(&loading); }

int cstb_info_from_memory(const unsigned char *buffer, int length, int *width, int *height, int *channels) {
    return cstb_load() ? 0 : p_info(buffer, length, width, height, channels);
}
unsigned char *cstb_load_from_memory(const unsigned char *buffer, int length, int *width, int *height,
                                     int *channels_in_file, int desired_channels) {
    return cstb_load() ? 0 : p_load(buffer, length, width, height, channels_in_file, desired_channels);
}
void cstb_image_free(void *pixels) { if (pixels && !cstb_load()) p_free(pixels); }
const char *cstb_failure_reason(void) {
    if (cstb_load()) return library_error(&loading);
    const char *reason = p_reason();
    return reason ? reason : "";
}
int cstb_resize_rgba(const unsigned char *input, int width, int height,
                     unsigned char *output, int output_width, int output_height) {
    if (cstb_load()) return 0;
    return p_resize(input, width, height, width * 4, output, output_width, output_height, output_width * 4, 4, 3, 0);
}
