#ifndef LOOPPLAYER_CGTK_SUBSET_H
#define LOOPPLAYER_CGTK_SUBSET_H
// The part of GTK 4 (Debian 12: 4.8) that Examples/GTKBackground calls, declared here rather than
// included: gtk4.pc's flags (-pthread, and graphene's -msse -mfpmath=sse) are ones SwiftPM prohibits,
// with a warning in every build of the package, and GTK's headers need a dozen include folders.
// These are GTK's own prototypes, with every widget type written as GtkWidget (one pointer in C's
// ABI) and GTK's enums as ints with their values below.
#include <stddef.h>

typedef struct _GtkWidget GtkWidget;
typedef struct _GdkPaintable GdkPaintable;
typedef struct _GdkTexture GdkTexture;
typedef struct _GdkFrameClock GdkFrameClock;
typedef struct _GdkDisplay GdkDisplay;
typedef struct _GtkCssProvider GtkCssProvider;
typedef struct _GBytes GBytes;
typedef struct _GMainContext GMainContext;
typedef int gboolean;

enum { LP_GTK_ALIGN_START = 1, LP_GTK_ALIGN_END = 2 };
enum { LP_GTK_ORIENTATION_VERTICAL = 1 };
enum { LP_GTK_CONTENT_FIT_COVER = 2 };
enum { LP_GDK_MEMORY_R8G8B8 = 7 };
enum { LP_GTK_STYLE_PROVIDER_PRIORITY_APPLICATION = 600 };

void gtk_init(void);
GtkWidget *gtk_window_new(void);
void gtk_window_set_title(GtkWidget *window, const char *title);
void gtk_window_set_default_size(GtkWidget *window, int width, int height);
void gtk_window_set_child(GtkWidget *window, GtkWidget *child);
void gtk_window_present(GtkWidget *window);
GtkWidget *gtk_overlay_new(void);
void gtk_overlay_set_child(GtkWidget *overlay, GtkWidget *child);
void gtk_overlay_add_overlay(GtkWidget *overlay, GtkWidget *widget);
GtkWidget *gtk_picture_new(void);
void gtk_picture_set_paintable(GtkWidget *picture, GdkPaintable *paintable);
void gtk_picture_set_content_fit(GtkWidget *picture, int fit);
void gtk_picture_set_can_shrink(GtkWidget *picture, gboolean can_shrink);
GtkWidget *gtk_box_new(int orientation, int spacing);
void gtk_box_append(GtkWidget *box, GtkWidget *child);
GtkWidget *gtk_label_new(const char *text);
void gtk_label_set_text(GtkWidget *label, const char *text);
GtkWidget *gtk_button_new_with_label(const char *label);
void gtk_button_set_label(GtkWidget *button, const char *label);
void gtk_widget_set_halign(GtkWidget *widget, int align);
void gtk_widget_set_valign(GtkWidget *widget, int align);
void gtk_widget_set_margin_start(GtkWidget *widget, int margin);
void gtk_widget_set_margin_top(GtkWidget *widget, int margin);
void gtk_widget_set_margin_end(GtkWidget *widget, int margin);
void gtk_widget_set_margin_bottom(GtkWidget *widget, int margin);
void gtk_widget_set_size_request(GtkWidget *widget, int width, int height);
void gtk_widget_add_css_class(GtkWidget *widget, const char *css_class);
typedef gboolean (*GtkTickCallback)(GtkWidget *widget, GdkFrameClock *clock, void *data);
unsigned gtk_widget_add_tick_callback(GtkWidget *widget, GtkTickCallback callback, void *data, void (*notify)(void *data));
GtkCssProvider *gtk_css_provider_new(void);
void gtk_css_provider_load_from_data(GtkCssProvider *provider, const char *data, ptrdiff_t length);
GdkDisplay *gdk_display_get_default(void);
void gtk_style_context_add_provider_for_display(GdkDisplay *display, GtkCssProvider *provider, unsigned priority);
GdkTexture *gdk_memory_texture_new(int width, int height, int format, GBytes *bytes, size_t stride);
GBytes *g_bytes_new(const void *data, size_t size);
void g_bytes_unref(GBytes *bytes);
void g_object_unref(void *object);
unsigned long g_signal_connect_data(void *instance, const char *signal, void (*handler)(void), void *data,
                                    void (*destroy)(void *data, void *closure), int flags);
gboolean g_main_context_iteration(GMainContext *context, gboolean may_block);
void g_main_context_wakeup(GMainContext *context);

#endif
