#include "max7219.h"

#include <avr/io.h>

#include "config.h"

#define REG_DIGIT0 0x01
#define REG_DECODE 0x09
#define REG_INTENSITY 0x0A
#define REG_SCAN_LIMIT 0x0B
#define REG_SHUTDOWN 0x0C
#define REG_TEST 0x0F

static uint8_t shadow[8];

static void spi_byte(uint8_t b)
{
    SPDR = b;
    while (!(SPSR & _BV(SPIF))) {
    }
}

static void write_reg(uint8_t reg, uint8_t value)
{
    PORTB &= (uint8_t)~_BV(MAX7219_LOAD_BIT);
    spi_byte(reg);
    spi_byte(value);
    PORTB |= _BV(MAX7219_LOAD_BIT); /* latched on the rising LOAD edge */
}

void max7219_init(uint8_t brightness)
{
    DDRB |= _BV(3) | _BV(5) | _BV(MAX7219_LOAD_BIT); /* MOSI, SCK, LOAD (SS) out */
    PORTB |= _BV(MAX7219_LOAD_BIT);
    SPCR = _BV(SPE) | _BV(MSTR); /* mode 0, MSB first, f/4 = 4 MHz (chip max 10) */
    write_reg(REG_TEST, 0);
    write_reg(REG_DECODE, 0);
    write_reg(REG_SCAN_LIMIT, 7);
    write_reg(REG_INTENSITY, brightness & 0x0F);
    for (uint8_t i = 0; i < 8; i++) {
        shadow[i] = 0;
        write_reg((uint8_t)(REG_DIGIT0 + i), 0);
    }
    write_reg(REG_SHUTDOWN, 1);
}

void max7219_brightness(uint8_t brightness)
{
    write_reg(REG_INTENSITY, brightness & 0x0F);
}

void max7219_show(const uint8_t seg[8])
{
    /* seg[0] is the leftmost digit; on the common modules digit register 8 is leftmost */
    for (uint8_t i = 0; i < 8; i++) {
        if (shadow[i] == seg[i])
            continue;
        shadow[i] = seg[i];
        write_reg((uint8_t)(REG_DIGIT0 + 7 - i), seg[i]);
    }
}
