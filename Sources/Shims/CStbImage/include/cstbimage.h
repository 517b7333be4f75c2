// Why this shim exists: stb_image (Debian libstb-dev) decodes the images that
// `chatctl chat` previews, and stb_image_resize shrinks them. Debian builds them
// as a shared library, libstb.so.0, so their security fixes reach chatctl with
// the package; only a preview needs it, so
// the shim loads it with dlopen on first use (as CMagic does libmagic): no run
// pays for it at start, and a machine without it still runs chatctl, without
// previews. Every stb_image function is reached through it.
#ifndef CSTBIMAGE_H
#define CSTBIMAGE_H

/// Loads libstb (once). Returns 0 on success; otherwise every call below fails
/// (0 / NULL) and cstb_load_error() says why.
int cstb_load(void);
const char *cstb_load_error(void);

/// stbi_info_from_memory: the size and channels from the header alone, nothing decoded.
int cstb_info_from_memory(const unsigned char *buffer, int length, int *width, int *height, int *channels);
/// stbi_load_from_memory: the first image (a GIF's first frame), converted to
/// `desired_channels` per pixel. Free the result with cstb_image_free.
unsigned char *cstb_load_from_memory(const unsigned char *buffer, int length, int *width, int *height,
                                     int *channels_in_file, int desired_channels);
void cstb_image_free(void *pixels);
/// stbi_failure_reason: the last failure on this thread, in stb's words.
const char *cstb_failure_reason(void);
/// stbir_resize_uint8_srgb: RGBA pixels (alpha last, rows packed) resampled into
/// `output`, which holds output_width×output_height of them. Returns 1, or 0.
int cstb_resize_rgba(const unsigned char *input, int width, int height,
                     unsigned char *output, int output_width, int output_height);
#endif
