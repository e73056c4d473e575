#ifndef LOOPPLAYER_CFFMPEG_SHIM_H
#define LOOPPLAYER_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <errno.h>

// Function-like macros and compound constants that Swift cannot import.
static const int64_t shim_nopts_value = (int64_t)0x8000000000000000ULL;
static inline int shim_averror_eof(void) { return AVERROR_EOF; }
static inline int shim_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int shim_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline AVRational shim_time_base_q(void) { return AV_TIME_BASE_Q; }
#endif
