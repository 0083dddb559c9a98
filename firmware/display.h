/* What the eight digits and five LEDs show for a state. Portable C: the AVR
 * side (max7219.c) only sends the result. */
#ifndef DISPLAY_H
#define DISPLAY_H

#include <stdint.h>

#include "state.h"

/* LED bits of display_render's *leds */
#define LEDS_WHITE_OWNS 0x01
#define LEDS_CENTRE 0x02
#define LEDS_BLACK_OWNS 0x04
#define LEDS_OFFER 0x08
#define LEDS_LINK 0x10

/* MAX7219 no-decode segment bits */
#define SEG_DP 0x80
#define SEG_A 0x40
#define SEG_B 0x20
#define SEG_C 0x10
#define SEG_D 0x08
#define SEG_E 0x04
#define SEG_F 0x02
#define SEG_G 0x01

uint8_t display_glyph(char c);
/* seg[0] is the leftmost digit. Layout: white score (2), "Cr" in the Crawford
 * game (2), cube (2, or 4 when above 64 using the Cr positions), black score (2).
 * blink_on: the current half of the offer blink. */
void display_render(const unit_state_t *s, uint8_t blink_on, uint8_t seg[8], uint8_t *leds);

#endif
