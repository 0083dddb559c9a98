/* The cube display unit: boot, the 1 ms tick, and the main loop. Interrupt
 * handlers only buffer bytes or set flags; all work happens here. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "buttons.h"
#include "config.h"
#include "display.h"
#include "hw.h"
#include "max7219.h"
#include "proto.h"
#include "report.h"
#include "state.h"
#include "uart.h"

static volatile uint32_t millis_;
static uint16_t EEMEM boot_count;
static volatile uint8_t tick;

/* The reset cause, read before anything clears it; the watchdog is switched
 * off at once because it stays armed (at 16 ms) after a watchdog reset. */
uint8_t mcusr_saved __attribute__((section(".noinit")));
void save_mcusr(void) __attribute__((naked, used, section(".init3")));
void save_mcusr(void)
{
    mcusr_saved = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(TIMER0_COMPA_vect)
{
    millis_++;
    tick = 1;
}

uint32_t hw_millis(void)
{
    uint8_t sreg = SREG;
    cli();
    uint32_t m = millis_;
    SREG = sreg;
    return m;
}

void hw_hang(void)
{
    for (;;) {
        /* the watchdog is no longer fed: it resets the unit within 250 ms */
    }
}

static uint8_t reset_cause(void)
{
    if (mcusr_saved & _BV(WDRF))
        return RESET_WATCHDOG;
    if (mcusr_saved & _BV(BORF))
        return RESET_BROWNOUT;
    if (mcusr_saved & _BV(EXTRF))
        return RESET_EXTERNAL;
    return RESET_POWER;
}

static void set_leds(uint8_t leds)
{
    uint8_t d = LED_PORT & (uint8_t)~(_BV(LED_WHITE_OWNS_BIT) | _BV(LED_CENTRE_BIT) |
                                      _BV(LED_BLACK_OWNS_BIT) | _BV(LED_OFFER_BIT));
    if (leds & LEDS_WHITE_OWNS)
        d |= _BV(LED_WHITE_OWNS_BIT);
    if (leds & LEDS_CENTRE)
        d |= _BV(LED_CENTRE_BIT);
    if (leds & LEDS_BLACK_OWNS)
        d |= _BV(LED_BLACK_OWNS_BIT);
    if (leds & LEDS_OFFER)
        d |= _BV(LED_OFFER_BIT);
    LED_PORT = d;
    if (leds & LEDS_LINK)
        PORTB |= _BV(LED_LINK_BIT);
    else
        PORTB &= (uint8_t)~_BV(LED_LINK_BIT);
}

static void hw_init(void)
{
    LED_DDR |= _BV(LED_WHITE_OWNS_BIT) | _BV(LED_CENTRE_BIT) | _BV(LED_BLACK_OWNS_BIT) |
               _BV(LED_OFFER_BIT);
    DDRB |= _BV(LED_LINK_BIT);
    DDRC &= (uint8_t)~BUTTON_MASK;
    PORTC |= BUTTON_MASK; /* pull-ups: a pressed button reads 0 */
    TCCR0A = _BV(WGM01);  /* CTC: 16 MHz / 64 / 250 = 1 kHz */
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    uart_init();
}

int main(void)
{
    uint8_t cause = reset_cause();
    state_init();
    unit.boot = (uint16_t)(eeprom_read_word(&boot_count) + 1);
    eeprom_update_word(&boot_count, unit.boot);
    proto_init();
    buttons_init();
    hw_init();
    max7219_init(unit.brightness);
    wdt_enable(WDTO_250MS);
    sei();

    uint32_t now = hw_millis();
    uint32_t last_refresh = now, last_send = now;
    uint8_t brightness = unit.brightness;
    uint8_t blink_on = 1;
    unit.last_rx_ms = now;
    report_banner(cause);
    proto_display_dirty = 1;

    for (;;) {
        wdt_reset();
        int16_t c;
        while ((c = uart_getc()) >= 0) {
            if (uart_take_overrun())
                proto_overrun();
            proto_byte((uint8_t)c);
        }
        if (tick) {
            tick = 0;
            now = hw_millis();
            uint8_t pressed = buttons_sample((uint8_t)(~PINC & BUTTON_MASK));
            for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
                if ((pressed & _BV(i)) && btnq_push(i)) {
                    report_button(btnq_at((uint8_t)(btnq_count() - 1)));
                    last_send = now;
                }
            }
            if (btnq_count() && now - last_send >= RETRANSMIT_MS) {
                for (uint8_t i = 0; i < btnq_count(); i++)
                    report_button(btnq_at(i));
                last_send = now;
            }
            if (unit.link_timeout_ms && !unit.link_lost &&
                now - unit.last_rx_ms > unit.link_timeout_ms) {
                unit.link_lost = 1;
                proto_display_dirty = 1;
                report_state();
            }
            uint8_t blink = !((now / BLINK_MS) & 1);
            if (blink != blink_on) {
                blink_on = blink;
                if (unit.offer != '-')
                    proto_display_dirty = 1;
            }
            if (now - last_refresh >= MAX7219_REFRESH_MS) {
                last_refresh = now;
                max7219_init(unit.brightness);
                proto_display_dirty = 1;
            }
        }
        if (proto_display_dirty) {
            proto_display_dirty = 0;
            if (brightness != unit.brightness) {
                brightness = unit.brightness;
                max7219_brightness(brightness);
            }
            uint8_t seg[8], leds;
            display_render(&unit, blink_on, seg, &leds);
            max7219_show(seg);
            set_leds(leds);
        }
        cli();
        if (!tick && uart_rx_empty()) {
            sleep_enable();
            sei();
            sleep_cpu(); /* idle: the tick or a received byte wakes us */
            sleep_disable();
        }
        sei();
    }
}
