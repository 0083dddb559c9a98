/* Runs the cube unit's firmware in simavr for the tests and benchmarks.
 *
 *   harness FIRMWARE.elf
 *
 * UART0 is bridged to a pseudo-terminal by a single-threaded loop (simavr 1.6's
 * own uart_pty part stalls on bursts and shares one /tmp link between runs).
 * Stdout: JSON lines with simulated-time stamps t (microseconds):
 *   {"ev":"pty","path":"/dev/pts/N"}       once, when the pty is ready
 *   {"t":T,"ev":"spi","v":B}               a byte the chip sent over SPI
 *   {"t":T,"ev":"pin","pin":"B2","v":1}   an output pin changed (LOAD, LEDs)
 *   {"t":T,"ev":"in_line"}                 the first byte of a host line entered the UART
 *   {"t":T,"ev":"out_nl"}                  the chip sent a newline
 *   {"t":T,"ev":"cpu","state":"..."}       the core stopped (done, crashed)
 *   {"t":T,"ev":"regs","ubrr":N,"u2x":0|1} answer to "regs"
 * Stdin, one command a line:
 *   pin C 3 0|1   drive an input pin (buttons: 0 pressed, 1 released)
 *   reset         reset the chip (as the RESET pin would)
 *   regs          report the UART's baud registers
 *   fast 0|1      1: run as fast as possible instead of at real time
 *   time          report the simulated time
 *   quit
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_spi.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_irq.h"

#define POLL_US 200

static avr_t *avr;
static int master_fd = -1, slave_fd = -1;
static int xoff, fast, line_start = 1, stopped;
static uint8_t pending[512];
static size_t pending_len, pending_pos;
static avr_irq_t *uart_in;
/* Button pins PC0..PC5: bit set = released (pull-up). Written into PINC every
 * poll, because a reset (the watchdog's too) clears PINC inside simavr. */
#define PINC_ADDR 0x26
static uint8_t buttons_released = 0x3F;

static unsigned long long sim_us(void)
{
    return (unsigned long long)(avr->cycle / (avr->frequency / 1000000));
}

static unsigned long long wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000;
}

static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void on_uart_out(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t b = (uint8_t)value;
    if (write(master_fd, &b, 1) < 0) {
        /* nobody reading and the pty is full: the byte is lost, as on a wire */
    }
    if (b == '\n')
        emit("{\"t\":%llu,\"ev\":\"out_nl\"}", sim_us());
}

static void feed_pending(void);

static void on_xon(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq, (void)value, (void)param;
    xoff = 0;
    feed_pending(); /* the UART can take more: at line speed, not poll speed */
}

static void on_xoff(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq, (void)value, (void)param;
    xoff = 1;
}

static void on_spi(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq, (void)param;
    emit("{\"t\":%llu,\"ev\":\"spi\",\"v\":%u}", sim_us(), value & 0xFF);
}

static void on_pin(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    const char *name = param;
    emit("{\"t\":%llu,\"ev\":\"pin\",\"pin\":\"%s\",\"v\":%u}", sim_us(), name, value ? 1 : 0);
}

static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a, (void)how_long; /* pacing is done by the main loop */
}

static void log_to_stderr(avr_t *a, const int level, const char *format, va_list ap)
{
    (void)a;
    if (level <= LOG_WARNING)
        vfprintf(stderr, format, ap); /* stdout carries only JSON */
}

static void quiet_uart(void)
{
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
}

static void pull_ups(void)
{
    avr->data[PINC_ADDR] = (uint8_t)((avr->data[PINC_ADDR] & 0xC0) | buttons_released);
}

static void open_pty(void)
{
    master_fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_fd < 0 || grantpt(master_fd) || unlockpt(master_fd)) {
        perror("harness: pty");
        exit(1);
    }
    const char *name = ptsname(master_fd);
    /* keep the slave open and raw: no echo back into the chip, no EIO while
     * the host has the port closed */
    slave_fd = open(name, O_RDWR | O_NOCTTY);
    struct termios tio;
    tcgetattr(slave_fd, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave_fd, TCSANOW, &tio);
    fcntl(master_fd, F_SETFL, fcntl(master_fd, F_GETFL) | O_NONBLOCK);
    emit("{\"ev\":\"pty\",\"path\":\"%s\"}", name);
}

static void feed_pending(void)
{
    static int feeding;
    if (feeding)
        return;
    feeding = 1;
    while (pending_pos < pending_len && !xoff) {
        uint8_t b = pending[pending_pos++];
        if (line_start)
            emit("{\"t\":%llu,\"ev\":\"in_line\"}", sim_us());
        line_start = b == '\n';
        avr_raise_irq(uart_in, b);
    }
    feeding = 0;
}

static void feed_uart(void)
{
    if (pending_pos == pending_len) {
        ssize_t n = read(master_fd, pending, sizeof pending);
        if (n <= 0)
            return;
        pending_len = (size_t)n;
        pending_pos = 0;
    }
    feed_pending();
}

static int command(char *line)
{
    char port;
    int pin, value;
    if (sscanf(line, "pin %c %d %d", &port, &pin, &value) == 3) {
        if (port == 'C' && pin >= 0 && pin < 6) {
            buttons_released = (uint8_t)(value ? buttons_released | (1 << pin)
                                               : buttons_released & ~(1 << pin));
            pull_ups();
            return 1;
        }
        avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), pin), value ? 1 : 0);
    } else if (strncmp(line, "reset", 5) == 0) {
        avr_reset(avr);
        avr->data[0x54] |= 0x02; /* MCUSR.EXTRF: as after the RESET pin */
        quiet_uart();
        pull_ups();
        xoff = 0;
        stopped = 0;
    } else if (strncmp(line, "regs", 4) == 0) {
        /* ATmega328P: UBRR0L 0xC4, UBRR0H 0xC5, UCSR0A 0xC0 (U2X0 is bit 1) */
        unsigned ubrr = avr->data[0xC4] | ((avr->data[0xC5] & 0x0F) << 8);
        emit("{\"t\":%llu,\"ev\":\"regs\",\"ubrr\":%u,\"u2x\":%u}", sim_us(), ubrr,
             (avr->data[0xC0] >> 1) & 1);
    } else if (sscanf(line, "fast %d", &value) == 1) {
        fast = value;
    } else if (strncmp(line, "time", 4) == 0) {
        emit("{\"t\":%llu,\"ev\":\"time\"}", sim_us());
    } else if (strncmp(line, "quit", 4) == 0) {
        return 0;
    } else {
        emit("{\"ev\":\"error\",\"text\":\"unknown harness command\"}");
    }
    return 1;
}

static int read_stdin(void)
{
    static char buf[256];
    static size_t len;
    struct pollfd p = {.fd = 0, .events = POLLIN};
    if (poll(&p, 1, 0) <= 0)
        return 1;
    ssize_t n = read(0, buf + len, sizeof buf - 1 - len);
    if (n <= 0)
        return 0; /* stdin closed: the test is gone */
    len += (size_t)n;
    char *nl;
    while ((nl = memchr(buf, '\n', len))) {
        *nl = 0;
        if (!command(buf))
            return 0;
        size_t used = (size_t)(nl - buf) + 1;
        memmove(buf, nl + 1, len - used);
        len -= used;
    }
    if (len == sizeof buf - 1)
        len = 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: harness FIRMWARE.elf\n");
        return 2;
    }
    avr_global_logger_set(log_to_stderr);
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw)) {
        fprintf(stderr, "harness: cannot read %s\n", argv[1]);
        return 1;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) {
        fprintf(stderr, "harness: no atmega328p in this simavr\n");
        return 1;
    }
    avr_init(avr);
    avr->frequency = 16000000;
    avr_load_firmware(avr, &fw);
    avr->frequency = 16000000;
    avr->sleep = no_sleep;
    avr->log = 0;

    quiet_uart();
    pull_ups();
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            on_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            on_xoff, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), on_spi,
                            NULL);
    static const struct {
        char port;
        int pin;
        const char *name;
    } watched[] = {{'B', 2, "B2"}, {'B', 0, "B0"}, {'D', 4, "D4"},
                   {'D', 5, "D5"}, {'D', 6, "D6"}, {'D', 7, "D7"}};
    for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++)
        avr_irq_register_notify(
            avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(watched[i].port), watched[i].pin), on_pin,
            (void *)watched[i].name);

    open_pty();
    fflush(stdout);
    unsigned long long wall0 = wall_us(), sim0 = sim_us();

    for (;;) {
        unsigned long long until = sim_us() + POLL_US;
        while (!stopped && sim_us() < until) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                emit("{\"t\":%llu,\"ev\":\"cpu\",\"state\":\"%s\"}", sim_us(),
                     state == cpu_Done ? "done" : "crashed");
                stopped = 1;
            }
        }
        feed_uart();
        pull_ups();
        if (!read_stdin())
            break;
        fflush(stdout);
        if (stopped) {
            usleep(1000);
            continue;
        }
        if (fast) {
            wall0 = wall_us();
            sim0 = sim_us();
            continue;
        }
        unsigned long long ahead_sim = sim_us() - sim0, ahead_wall = wall_us() - wall0;
        if (ahead_sim > ahead_wall + 500)
            usleep((useconds_t)(ahead_sim - ahead_wall));
    }
    return 0;
}
