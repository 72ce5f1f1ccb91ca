// gettext is part of glibc: no library to link.
#include <libintl.h>
#include <locale.h>
