#include "proto.h"

#include "hw.h"
#include "report.h"
#include "state.h"

volatile uint8_t proto_display_dirty;

static char line[LINE_MAX + 1];
static uint8_t len;
static uint8_t too_long, bad_char, overrun;

#define MAX_ARGS 8

void proto_init(void)
{
    len = too_long = bad_char = overrun = 0;
}

void proto_overrun(void) { overrun = 1; }

/* Parse a decimal number of at most 5 digits, no sign; 0 on failure. */
static uint8_t parse_u16(const char *s, uint16_t max, uint16_t *out)
{
    uint32_t v = 0;
    uint8_t n = 0;
    if (!*s)
        return 0;
    for (; *s; s++, n++) {
        if (*s < '0' || *s > '9' || n >= 5)
            return 0;
        v = v * 10 + (uint32_t)(*s - '0');
    }
    if (v > max)
        return 0;
    *out = (uint16_t)v;
    return 1;
}

static uint8_t one_char(const char *s, const char *allowed)
{
    if (!s[0] || s[1])
        return 0;
    char a;
    while ((a = (char)P_READ(allowed++)))
        if (a == s[0])
            return 1;
    return 0;
}

static uint8_t same(const char *a, const char *keyword_in_flash)
{
    char k;
    while ((k = (char)P_READ(keyword_in_flash++))) {
        char c = *a++;
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c != k)
            return 0;
    }
    return *a == 0;
}

/* SHOW cube owner offer white black length flag */
static uint8_t cmd_show(char **arg)
{
    uint16_t cube, white, black, length;
    if (!parse_u16(arg[0], 4096, &cube) || !parse_u16(arg[3], 99, &white) ||
        !parse_u16(arg[4], 99, &black) || !parse_u16(arg[5], 99, &length))
        return ERR_BAD_NUMBER;
    if (cube == 0 || (cube & (cube - 1)))
        return ERR_BAD_CUBE;
    if (!one_char(arg[1], P("cwb")) || !one_char(arg[2], P("-wb")))
        return ERR_BAD_OWNER;
    char owner = arg[1][0], offer = arg[2][0];
    if (offer != '-' && owner != 'c' && owner != offer)
        return ERR_BAD_OWNER; /* only the cube's owner may double */
    if (offer != '-' && cube == 4096)
        return ERR_BAD_CUBE;
    if (length && (white > length || black > length))
        return ERR_BAD_SCORE;
    if (!one_char(arg[6], P("-cp")))
        return ERR_BAD_FLAG;
    if (arg[6][0] != '-' && !length)
        return ERR_BAD_FLAG; /* Crawford exists only in a match */
    if (arg[6][0] == 'c' && (cube != 1 || offer != '-'))
        return ERR_BAD_FLAG; /* no doubling in the Crawford game */
    unit.cube = cube;
    unit.owner = owner;
    unit.offer = offer;
    unit.score_white = (uint8_t)white;
    unit.score_black = (uint8_t)black;
    unit.length = (uint8_t)length;
    unit.flag = arg[6][0];
    unit.shown = 1;
    proto_display_dirty = 1;
    return 0;
}

static uint8_t execute(char *s)
{
    char *arg[MAX_ARGS];
    uint8_t n = 0;
    /* split on spaces */
    while (*s) {
        while (*s == ' ')
            *s++ = 0;
        if (!*s)
            break;
        if (n == MAX_ARGS)
            return ERR_ARG_COUNT;
        arg[n++] = s;
        while (*s && *s != ' ')
            s++;
    }
    if (n == 0)
        return 0; /* empty line: resync */
    uint8_t argc = (uint8_t)(n - 1);
    uint16_t v;
    if (same(arg[0], P("?"))) {
        if (argc)
            return ERR_ARG_COUNT;
        report_state();
        return 0;
    }
    if (same(arg[0], P("SHOW"))) {
        if (argc != 7)
            return ERR_ARG_COUNT;
        return cmd_show(arg + 1);
    }
    if (same(arg[0], P("ACK"))) {
        if (argc != 1)
            return ERR_ARG_COUNT;
        if (!parse_u16(arg[1], 65535, &v))
            return ERR_BAD_NUMBER;
        return btnq_ack(v) ? 0 : ERR_NOTHING_TO_ACK;
    }
    if (same(arg[0], P("SYNC"))) {
        if (argc != 1)
            return ERR_ARG_COUNT;
        if (!parse_u16(arg[1], 65535, &v))
            return ERR_BAD_NUMBER;
        report_sync(arg[1]);
        return 0;
    }
    if (same(arg[0], P("LINK"))) {
        if (argc != 1)
            return ERR_ARG_COUNT;
        if (!parse_u16(arg[1], 60000, &v))
            return ERR_BAD_NUMBER;
        unit.link_timeout_ms = v;
        return 0;
    }
    if (same(arg[0], P("BRIGHT"))) {
        if (argc != 1)
            return ERR_ARG_COUNT;
        if (!parse_u16(arg[1], 15, &v))
            return ERR_BAD_NUMBER;
        unit.brightness = (uint8_t)v;
        proto_display_dirty = 1;
        return 0;
    }
    if (same(arg[0], P("HELP"))) {
        if (argc)
            return ERR_ARG_COUNT;
        report_help();
        return 0;
    }
    if (same(arg[0], P("TEST"))) {
        if (argc != 1)
            return ERR_ARG_COUNT;
        if (!same(arg[1], P("WDT")))
            return ERR_UNKNOWN_COMMAND;
        report_ok();
        hw_hang();
        return 0xFF; /* answered already */
    }
    return ERR_UNKNOWN_COMMAND;
}

void proto_byte(uint8_t c)
{
    if (c == '\r')
        return;
    if (c != '\n') {
        if (c < 0x20 || c > 0x7E)
            bad_char = 1;
        else if (len < LINE_MAX)
            line[len++] = (char)c;
        else
            too_long = 1;
        return;
    }
    /* a whole line: every line gets exactly one answer */
    line[len] = 0;
    uint8_t err;
    if (overrun)
        err = ERR_OVERRUN;
    else if (too_long)
        err = ERR_LINE_TOO_LONG;
    else if (bad_char)
        err = ERR_BAD_CHARACTER;
    else
        err = execute(line);
    unit.last_rx_ms = hw_millis();
    if (unit.link_lost) {
        unit.link_lost = 0;
        proto_display_dirty = 1;
    }
    if (err == 0)
        report_ok();
    else if (err != 0xFF)
        report_error(err);
    proto_init();
}
