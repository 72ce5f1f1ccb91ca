// OpenGL through libepoxy (GTK's own loader): only what choosing GTK's renderer asks of the driver.
#include <epoxy/gl.h>

// The current context's GL_RENDERER string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"; NULL without a context.
static inline const char *oekaki_gl_renderer(void) {
    return (const char *)glGetString(GL_RENDERER);
}
