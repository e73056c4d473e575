#!/usr/bin/env python3
"""Writes loopplay(1) from the binary's own definitions, so that the man page and --help cannot drift:
the options from `--experimental-dump-help` (swift-argument-parser's JSON of the same definitions
--help prints), the keys and exit codes from its discussion, the IPC's commands and properties from
`--input-cmdlist` and `--list-properties` (the tables the IPC answers by).

    scripts/make-man.py LOOPPLAY OUT.1 [VERSION]
"""
import datetime
import json
import os
import re
import subprocess
import sys


def roff(text):
    """Text safe in a roff line: backslashes, hyphens of options, a leading dot or quote."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def paragraphs(discussion):
    """The discussion's blank-line separated paragraphs, each joined into one line."""
    return [" ".join(line.strip() for line in block.splitlines()) for block in re.split(r"\n\s*\n", discussion.strip())]


def labelled(blocks, label):
    """The paragraph that starts with `label:`, without it; fails loudly if --help lost it."""
    for block in blocks:
        if block.startswith(label + ":"):
            return block[len(label) + 1:].strip()
    sys.exit(f"make-man.py: the discussion has no '{label}:' paragraph")


def option_names(argument):
    names = []
    for name in argument.get("names", []):
        names.append(("-" if name["kind"] == "short" else "--") + name["name"])
    if argument["kind"] == "positional":
        return "\\fI" + roff(argument.get("valueName", "source")) + "\\fR ..."
    value = "" if argument["kind"] == "flag" else " \\fI" + roff(argument.get("valueName", "value")) + "\\fR"
    return ", ".join("\\fB" + roff(n) + "\\fR" for n in names) + value


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    binary, out = sys.argv[1], sys.argv[2]
    run = lambda *args: subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    version = sys.argv[3] if len(sys.argv) == 4 else run("--version").split()[1]
    command = json.loads(run("--experimental-dump-help"))["command"]
    commands = run("--input-cmdlist").splitlines()
    properties = run("--list-properties").splitlines()
    if not command.get("arguments") or not commands or not properties:
        sys.exit("make-man.py: the binary listed no options, commands or properties")
    blocks = paragraphs(command["discussion"])
    keys = [k.strip().rstrip(".") for k in labelled(blocks, "Keys").split(";")]
    exits = [e.strip().rstrip(".") for e in labelled(blocks, "Exit codes").split(";")]
    prose = [b for b in blocks if not re.match(r"(Keys|Exit codes):", b)]
    # SOURCE_DATE_EPOCH: a reproducible date (the commit's), as Debian's tools use it.
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or datetime.datetime.now().timestamp())
    date = datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc).strftime("%Y-%m-%d")

    lines = [f'.TH LOOPPLAY 1 "{date}" "loopplay {version}" "User Commands"',
             ".SH NAME", "loopplay \\- " + roff(command["abstract"].rstrip(".")),
             ".SH SYNOPSIS", "\\fBloopplay\\fR [\\fIoptions\\fR] [\\fIsource\\fR ...]",
             ".br", "\\fBloopplay\\fR [\\fIoptions\\fR] \\fB\\-\\-playlist\\fR \\fIfile\\fR",
             ".br", "\\fBloopplay\\fR [\\fIoptions\\fR] \\fB\\-\\-schedule\\fR \\fIfile\\fR",
             ".SH DESCRIPTION",
             roff("loopplay plays a video in a seamless loop: local files, http(s) and HLS sources, with sound, "
                  "subtitles, filters and overlays, in a window, fullscreen, on several panels of a wall, or headless. "
                  "Its flags, keys, config file and JSON IPC follow mpv's conventions.")]
    for block in prose:
        lines += [".PP", roff(block)]
    lines += [".SH OPTIONS"]
    section = None
    for argument in command["arguments"]:
        if not argument.get("shouldDisplay", True):
            continue
        title = argument.get("sectionTitle") or "Options"
        if title != section:
            section = title
            lines += [".SS " + roff(title)]
        help_text = argument.get("abstract", "")
        if argument.get("allValues") and "values:" not in help_text:
            help_text += " Values: " + ", ".join(argument["allValues"]) + "."
        if "defaultValue" in argument and "default" not in help_text and argument["kind"] != "flag":
            help_text += f" Default: {argument['defaultValue']}."
        lines += [".TP", option_names(argument), roff(help_text)]

    lines += [".SH KEYS", roff("In a window (as mpv binds them):")]
    for key in keys:
        lines += [".IP \\(bu 2", roff(key)]
    lines += [".SH IPC",
              roff("With --input-ipc-server PATH, loopplay answers mpv's JSON IPC on a Unix socket (mode 0600): one JSON "
                   "object per line, {\"command\": [\"name\", args...], \"request_id\": N}, or the named form "
                   "{\"command\": {\"name\": ..., args...}}. Replies and events are JSON lines, as mpv's (mpv client "
                   "libraries and socat work as they do with mpv)."),
              ".SS Commands", ".nf"] + [roff(c) for c in commands] + [".fi",
              ".SS Properties",
              roff("By their mpv names and in mpv's units (get_property, set_property, observe_property; "
                   "add, cycle and set for the writable ones):"), ".nf"] + [roff(p) for p in properties] + [".fi"]
    lines += [".SH CONFIGURATION",
              roff("Settings are read from $XDG_CONFIG_HOME/loopplay/loopplay.conf (~/.config/loopplay/loopplay.conf), then "
                   "from --config FILE, then the command line, which wins. The syntax is mpv.conf's: one option a line "
                   "by its long name without the dashes, name=value or a bare flag, # comments. SIGHUP reads the files "
                   "again and applies what changed."),
              ".PP", ".nf", "# /etc/loopplay/lobby.conf", "source=/srv/media/lobby.mp4", "loop", "fullscreen",
              "volume=40", "metrics\\-address=127.0.0.1:9100", ".fi"]
    lines += [".SH EXIT STATUS"]
    for entry in exits:
        code, _, meaning = entry.partition(" ")
        lines += [".TP", "\\fB" + roff(code) + "\\fR", roff(meaning)]
    lines += [".SH SIGNALS",
              ".TP", "\\fBSIGHUP\\fR", roff("Read the config files and the --schedule file again; retry failed entries."),
              ".TP", "\\fBSIGTERM\\fR, \\fBSIGINT\\fR", roff("Stop at once and exit (STOPPING=1 to systemd first)."),
              ".SH ENVIRONMENT",
              ".TP", "\\fBLOOPPLAYER_MEDIA_PATH\\fR", roff("Colon-separated folders a bare source name is looked up in, "
                                                         "after the current folder and before the bundled media."),
              ".TP", "\\fBXDG_CONFIG_HOME\\fR", roff("Where loopplay/loopplay.conf is read from (default ~/.config)."),
              ".TP", "\\fBDISPLAY\\fR, \\fBWAYLAND_DISPLAY\\fR", roff("The display the windows open on; without one, "
                                                                     "loopplay plays headless and says so."),
              ".TP", "\\fBSDL_AUDIODRIVER\\fR", roff("SDL's sound driver, as --audio-driver."),
              ".TP", "\\fBNOTIFY_SOCKET\\fR, \\fBWATCHDOG_USEC\\fR", roff("Set by systemd for Type=notify: READY=1 "
                  "once the first picture is shown, WATCHDOG=1 while pictures keep coming, STATUS= lines."),
              ".SH FILES",
              ".TP", "\\fI/etc/loopplay/loopplay.conf\\fR", roff("An example configuration, read by loopplay@loopplay.service; "
                                                               "copy it to /etc/loopplay/NAME.conf for loopplay@NAME.service."),
              ".TP", "\\fI~/.config/loopplay/loopplay.conf\\fR", roff("The user's configuration, read by every run "
                                                                     "unless --no-config."),
              ".TP", "\\fI/usr/lib/systemd/system/loopplay@.service\\fR",
              roff("A system service per screen: systemctl enable --now loopplay@NAME reads /etc/loopplay/NAME.conf, with its "
                   "IPC socket at /run/loopplay/NAME/ipc.sock; it fails and is restarted while the display is not there."),
              ".TP", "\\fI/usr/lib/systemd/user/loopplay.service\\fR",
              roff("A user service reading ~/.config/loopplay/loopplay.conf: systemctl --user enable --now loopplay."),
              ".TP", "\\fI/usr/share/loopplay/Media/swipe.mp4\\fR", roff("The bundled sample: loopplay swipe plays it."),
              ".SH EXAMPLES", ".nf", "loopplay \\-\\-loop swipe", "loopplay \\-\\-fs \\-\\-loop \\-\\-volume 40 /srv/media/lobby.mp4",
              "loopplay \\-\\-playlist shop.m3u \\-\\-loop\\-playlist", "loopplay \\-\\-schedule /etc/loopplay/week.yaml",
              "loopplay \\-\\-sync\\-epoch 2026\\-01\\-01T00:00:00Z \\-\\-crop 960x1080+0+0 wall.mp4",
              "echo '{\"command\": [\"set_property\", \"pause\", true]}' | socat \\- /run/user/1000/loopplay.sock", ".fi",
              ".SH SEE ALSO", "\\fBmpv\\fR(1), \\fBffplay\\fR(1), \\fBsystemd.service\\fR(5), \\fBsystemctl\\fR(1)"]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
