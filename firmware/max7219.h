/* The MAX7219 eight-digit module over hardware SPI (AVR only). */
#ifndef MAX7219_H
#define MAX7219_H

#include <stdint.h>

void max7219_init(uint8_t brightness); /* every control register, display blank */
void max7219_show(const uint8_t seg[8]); /* only the digits that changed */
void max7219_brightness(uint8_t brightness);

#endif
