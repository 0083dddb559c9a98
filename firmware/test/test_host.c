/* Unit tests of the portable firmware modules, built with the host's gcc
 * (make host-test). Prints one line per failure and exits 1 if any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../buttons.h"
#include "../display.h"
#include "../hw.h"
#include "../proto.h"
#include "../report.h"
#include "../state.h"

static char out[4096];
static size_t out_len;
static uint32_t now_ms;
static int hung;
static int failures, checks;

uint32_t hw_millis(void) { return now_ms; }
void hw_hang(void) { hung = 1; }
void uart_putc(char c)
{
    if (out_len + 1 < sizeof out)
        out[out_len++] = c;
    out[out_len] = 0;
}

#define CHECK(cond)                                                              \
    do {                                                                         \
        checks++;                                                                \
        if (!(cond)) {                                                           \
            failures++;                                                          \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);             \
        }                                                                        \
    } while (0)

static void reset(void)
{
    state_init();
    proto_init();
    buttons_init();
    out_len = 0;
    out[0] = 0;
    hung = 0;
}

/* Send one line (without its newline) and return everything the unit answered. */
static const char *send(const char *line)
{
    out_len = 0;
    out[0] = 0;
    for (const char *p = line; *p; p++)
        proto_byte((uint8_t)*p);
    proto_byte('\n');
    return out;
}

static const char *shown(void)
{
    static char text[9];
    uint8_t seg[8], leds;
    display_render(&unit, 1, seg, &leds);
    for (int i = 0; i < 8; i++) {
        char c = '?';
        if (seg[i] == 0)
            c = ' ';
        const char *alphabet = "0123456789-CrLot";
        for (const char *a = alphabet; *a; a++)
            if (display_glyph(*a) == seg[i] && seg[i])
                c = *a;
        text[i] = c;
    }
    text[8] = 0;
    return text;
}

static void test_lines_get_one_answer(void)
{
    reset();
    CHECK(strcmp(send(""), "ok\r\n") == 0);
    CHECK(strcmp(send("   "), "ok\r\n") == 0);
    CHECK(strcmp(send("FROB"), "error:1\r\n") == 0);
    CHECK(strcmp(send("show 1 c - 0 0 7 -"), "ok\r\n") == 0); /* keywords any case */
    CHECK(strcmp(send("SYNC 4711"), "[SYNC 4711]\r\nok\r\n") == 0);
    CHECK(strcmp(send("SYNC x"), "error:2\r\n") == 0);
    CHECK(strncmp(send("HELP"), "[HELP ", 6) == 0);
    CHECK(strcmp(send("LINK 500"), "ok\r\n") == 0 && unit.link_timeout_ms == 500);
    CHECK(strcmp(send("LINK 60001"), "error:2\r\n") == 0);
    CHECK(strcmp(send("BRIGHT 15"), "ok\r\n") == 0 && unit.brightness == 15);
    CHECK(strcmp(send("BRIGHT 16"), "error:2\r\n") == 0);
    CHECK(strcmp(send("BRIGHT"), "error:3\r\n") == 0);
    CHECK(strcmp(send("? x"), "error:3\r\n") == 0);
    CHECK(strcmp(send("TEST LAMP"), "error:1\r\n") == 0);
    CHECK(!hung);
    CHECK(strcmp(send("TEST WDT"), "ok\r\n") == 0 && hung);
}

static void test_show_validates_everything(void)
{
    reset();
    CHECK(strcmp(send("SHOW 3 c - 0 0 7 -"), "error:7\r\n") == 0);
    CHECK(strcmp(send("SHOW 8192 c - 0 0 7 -"), "error:2\r\n") == 0);
    CHECK(strcmp(send("SHOW 0 c - 0 0 7 -"), "error:7\r\n") == 0);
    CHECK(strcmp(send("SHOW 4096 c w 0 0 0 -"), "error:7\r\n") == 0);
    CHECK(strcmp(send("SHOW 2 x - 0 0 7 -"), "error:8\r\n") == 0);
    CHECK(strcmp(send("SHOW 2 w b 0 0 7 -"), "error:8\r\n") == 0); /* only the owner doubles */
    CHECK(strcmp(send("SHOW 2 w ww 0 0 7 -"), "error:8\r\n") == 0);
    CHECK(strcmp(send("SHOW 1 c - 8 0 7 -"), "error:9\r\n") == 0);
    CHECK(strcmp(send("SHOW 1 c - 100 0 0 -"), "error:2\r\n") == 0);
    CHECK(strcmp(send("SHOW 1 c - 0 0 7 x"), "error:10\r\n") == 0);
    CHECK(strcmp(send("SHOW 1 c - 0 0 0 c"), "error:10\r\n") == 0); /* no Crawford in money */
    CHECK(strcmp(send("SHOW 2 w - 6 0 7 c"), "error:10\r\n") == 0); /* no cube in Crawford */
    CHECK(strcmp(send("SHOW 1 c - 0 0 7"), "error:3\r\n") == 0);
    CHECK(strcmp(send("SHOW -1 c - 0 0 7 -"), "error:2\r\n") == 0);
    CHECK(!unit.shown); /* nothing half-applied */
    CHECK(strcmp(send("SHOW 4 b - 3 1 7 -"), "ok\r\n") == 0);
    CHECK(unit.shown && unit.cube == 4 && unit.owner == 'b' && unit.score_white == 3);
}

static void test_display_layout(void)
{
    reset();
    CHECK(strcmp(shown(), "--    --") == 0);
    send("SHOW 1 c - 0 0 7 -");
    CHECK(strcmp(shown(), " 0  64 0") == 0);
    send("SHOW 4 b - 3 12 15 -");
    CHECK(strcmp(shown(), " 3   412") == 0);
    send("SHOW 1 c - 6 4 7 c");
    CHECK(strcmp(shown(), " 6Cr64 4") == 0);
    send("SHOW 1024 w - 0 0 0 -");
    CHECK(strcmp(shown(), " 01024 0") == 0);
    uint8_t seg[8], leds;
    display_render(&unit, 1, seg, &leds);
    CHECK(leds == (LEDS_LINK | LEDS_WHITE_OWNS));
    send("SHOW 2 w w 1 2 5 -"); /* white redoubles to 4: the 4 blinks */
    display_render(&unit, 1, seg, &leds);
    CHECK(strcmp(shown(), " 1   4 2") == 0);
    CHECK(leds == (LEDS_LINK | LEDS_WHITE_OWNS | LEDS_OFFER));
    display_render(&unit, 0, seg, &leds);
    CHECK(seg[2] == 0 && seg[5] == 0 && seg[1] != 0);
    unit.link_lost = 1;
    CHECK(strcmp(shown(), "  Lo5t  ") == 0); /* S and 5 share a glyph */
    display_render(&unit, 1, seg, &leds);
    CHECK(leds == 0);
    send(""); /* any line restores the link */
    CHECK(!unit.link_lost && strcmp(shown(), " 1   4 2") == 0);
}

static void test_input_faults(void)
{
    reset();
    char longline[LINE_MAX + 10];
    memset(longline, 'A', sizeof longline - 1);
    longline[sizeof longline - 1] = 0;
    CHECK(strcmp(send(longline), "error:4\r\n") == 0);
    CHECK(strcmp(send(""), "ok\r\n") == 0); /* the next line is fine */
    char exact[LINE_MAX + 1];
    memset(exact, ' ', LINE_MAX);
    exact[LINE_MAX] = 0;
    CHECK(strcmp(send(exact), "ok\r\n") == 0); /* LINE_MAX characters fit */
    CHECK(strcmp(send("SHOW\x01"), "error:5\r\n") == 0);
    CHECK(strcmp(send("\xff\xfe"), "error:5\r\n") == 0);
    proto_byte('S');
    proto_overrun();
    CHECK(strcmp(send("HOW"), "error:6\r\n") == 0);
    CHECK(strcmp(send("?"), "<state cube:1 owner:c offer:- score:0-0/0 flag:- shown:0 "
                            "link:ok pending:0 dropped:0 boot:0>\r\nok\r\n") == 0);
    out_len = 0;
    proto_byte('\r');
    proto_byte('\n');
    CHECK(strcmp(out, "ok\r\n") == 0); /* CR LF is one line */
}

static void test_button_queue(void)
{
    reset();
    CHECK(strcmp(send("ACK 1"), "error:11\r\n") == 0); /* nothing sent yet */
    for (int i = 0; i < BUTTON_QUEUE; i++)
        CHECK(btnq_push((uint8_t)(i % 6)));
    CHECK(!btnq_push(0) && btnq_dropped() == 1);
    CHECK(btnq_count() == BUTTON_QUEUE && btnq_at(0)->seq == 1);
    out_len = 0;
    report_button(btnq_at(4));
    CHECK(strcmp(out, "[BTN 0 5 b take]\r\n") == 0);
    CHECK(strcmp(send("ACK 17"), "error:11\r\n") == 0);
    CHECK(strcmp(send("ACK 3"), "ok\r\n") == 0 && btnq_count() == BUTTON_QUEUE - 3);
    CHECK(strcmp(send("ACK 2"), "ok\r\n") == 0 && btnq_count() == BUTTON_QUEUE - 3);
    CHECK(btnq_at(0)->seq == 4);
    CHECK(strcmp(send("ACK 16"), "ok\r\n") == 0 && btnq_count() == 0);
    CHECK(btnq_push(2) && btnq_at(0)->seq == 17);
    CHECK(strcmp(send("ACK 0"), "error:11\r\n") == 0);
}

static void test_sequence_wraps_past_zero(void)
{
    reset();
    for (long i = 0; i < 65535; i++) {
        btnq_push(0);
        btnq_ack(btnq_at(0)->seq);
    }
    CHECK(btnq_count() == 0);
    CHECK(btnq_push(1) && btnq_at(0)->seq == 1); /* 65535 is followed by 1, never 0 */
    CHECK(btnq_ack(65535) && btnq_count() == 1);  /* an old number acknowledges nothing new */
    CHECK(btnq_ack(1) && btnq_count() == 0);
}

static void test_debounce(void)
{
    reset();
    uint8_t got = 0;
    /* a bouncing press: 5 ms of chatter, then held */
    for (int t = 0; t < 5; t++)
        got |= buttons_sample(t % 2 ? 0x01 : 0);
    for (int t = 0; t < DEBOUNCE_MS - 1; t++)
        got |= buttons_sample(0x01);
    CHECK(got == 0);
    got |= buttons_sample(0x01);
    CHECK(got == 0x01);
    got = 0;
    for (int t = 0; t < 100; t++)
        got |= buttons_sample(0x01); /* held: reported once */
    CHECK(got == 0);
    /* a glitch shorter than the debounce time while released */
    for (int t = 0; t < 50; t++)
        got |= buttons_sample(0);
    for (int t = 0; t < DEBOUNCE_MS - 2; t++)
        got |= buttons_sample(0x20);
    for (int t = 0; t < 50; t++)
        got |= buttons_sample(0);
    CHECK(got == 0);
    /* two buttons at once */
    for (int t = 0; t < DEBOUNCE_MS; t++)
        got |= buttons_sample(0x09);
    CHECK(got == 0x09);
}

static void test_banner(void)
{
    reset();
    unit.boot = 42;
    report_banner(RESET_WATCHDOG);
    char want[64];
    snprintf(want, sizeof want, "%s %s proto:%d reset:watchdog boot:42\r\n", BANNER_PREFIX,
             FIRMWARE_VERSION, PROTOCOL_VERSION);
    CHECK(strcmp(out, want) == 0);
}

int main(void)
{
    test_lines_get_one_answer();
    test_show_validates_everything();
    test_display_layout();
    test_input_faults();
    test_button_queue();
    test_sequence_wraps_past_zero();
    test_debounce();
    test_banner();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
