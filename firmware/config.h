/* Numbers with names: pins, sizes and timings of the cube display unit.
 * Protocol numbers (codes, line length, timeouts) live in codes.h, which is
 * generated from companion/link/codes.py so C and Python cannot disagree. */
#ifndef CONFIG_H
#define CONFIG_H

#include "codes.h"

#define UART_RX_SIZE 64  /* power of two */
#define UART_TX_SIZE 128 /* power of two */

#define BLINK_MS 250          /* half period of the offer blink */
#define MAX7219_REFRESH_MS 5000 /* rewrite every register: a glitch on the wires heals */
#define BRIGHTNESS_DEFAULT 8  /* MAX7219 intensity, 0..15 */

/* Pins (ATmega328P, Arduino Uno/Nano names in brackets); see hardware.md. */
/* SPI to the MAX7219: MOSI PB3 [D11] -> DIN, SCK PB5 [D13] -> CLK, PB2 [D10] -> LOAD/CS */
#define MAX7219_LOAD_BIT 2 /* on port B */
/* LEDs, active high through 330 ohm: */
#define LED_PORT PORTD
#define LED_DDR DDRD
#define LED_WHITE_OWNS_BIT 4  /* PD4 [D4] */
#define LED_CENTRE_BIT 5      /* PD5 [D5] */
#define LED_BLACK_OWNS_BIT 6  /* PD6 [D6] */
#define LED_OFFER_BIT 7       /* PD7 [D7] */
#define LED_LINK_BIT 0        /* PB0 [D8], on port B */
/* Buttons to ground, internal pull-ups: PC0..PC5 [A0..A5] =
 * white double, white take, white pass, black double, black take, black pass */
#define BUTTON_COUNT 6
#define BUTTON_MASK 0x3F

#endif
