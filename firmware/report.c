#include "report.h"

#include "hw.h"

/* Strings stay in flash on the AVR (RAM is 2 KB and we promise under 1 KB). */
static void puts_(const char *s)
{
    char c;
    while ((c = (char)P_READ(s++)))
        uart_putc(c);
}

static void puts_ram(const char *s)
{
    while (*s)
        uart_putc(*s++);
}

static const char *button_name(uint8_t b)
{
    switch (b % 3) {
    case 0: return P("double");
    case 1: return P("take");
    default: return P("pass");
    }
}

static const char *reset_name(uint8_t cause)
{
    switch (cause) {
    case RESET_EXTERNAL: return P("external");
    case RESET_BROWNOUT: return P("brownout");
    case RESET_WATCHDOG: return P("watchdog");
    default: return P("power");
    }
}

static void putu(uint32_t v)
{
    char buf[11];
    uint8_t n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        uart_putc(buf[--n]);
}

static void eol(void)
{
    uart_putc('\r');
    uart_putc('\n');
}

void report_ok(void)
{
    puts_(P("ok"));
    eol();
}

void report_error(uint8_t code)
{
    puts_(P("error:"));
    putu(code);
    eol();
}

void report_banner(uint8_t reset_cause)
{
    puts_(P(BANNER_PREFIX " " FIRMWARE_VERSION " proto:"));
    putu(PROTOCOL_VERSION);
    puts_(P(" reset:"));
    puts_(reset_name(reset_cause));
    puts_(P(" boot:"));
    putu(unit.boot);
    eol();
}

void report_button(const btn_event_t *e)
{
    puts_(P("[BTN "));
    putu(unit.boot);
    uart_putc(' ');
    putu(e->seq);
    uart_putc(' ');
    uart_putc(e->button / 3 ? 'b' : 'w');
    uart_putc(' ');
    puts_(button_name(e->button));
    uart_putc(']');
    eol();
}

void report_state(void)
{
    puts_(P("<state cube:"));
    putu(unit.cube);
    puts_(P(" owner:"));
    uart_putc(unit.owner);
    puts_(P(" offer:"));
    uart_putc(unit.offer);
    puts_(P(" score:"));
    putu(unit.score_white);
    uart_putc('-');
    putu(unit.score_black);
    uart_putc('/');
    putu(unit.length);
    puts_(P(" flag:"));
    uart_putc(unit.flag);
    puts_(P(" shown:"));
    putu(unit.shown);
    puts_(P(" link:"));
    puts_(unit.link_lost ? P("lost") : P("ok"));
    puts_(P(" pending:"));
    putu(btnq_count());
    puts_(P(" dropped:"));
    putu(btnq_dropped());
    puts_(P(" boot:"));
    putu(unit.boot);
    uart_putc('>');
    eol();
}

void report_sync(const char *token)
{
    puts_(P("[SYNC "));
    puts_ram(token);
    uart_putc(']');
    eol();
}

void report_help(void)
{
    puts_(P("[HELP SHOW cube owner offer white black length flag|ACK n|SYNC n|LINK ms|BRIGHT n|?|TEST WDT]"));
    eol();
}
