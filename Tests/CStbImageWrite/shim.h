// stb_image_write from Debian's libstb: the tests make their images with it.
#include <stb_image_write.h>
