#include "buttons.h"

#include "config.h"

static uint8_t stable;               /* debounced state, bit per button */
static uint8_t count[BUTTON_COUNT];  /* samples in a row that differ from stable */

void buttons_init(void)
{
    stable = 0;
    for (uint8_t i = 0; i < BUTTON_COUNT; i++)
        count[i] = 0;
}

uint8_t buttons_sample(uint8_t raw)
{
    uint8_t pressed = 0;
    for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
        uint8_t bit = (uint8_t)(1u << i);
        if ((raw & bit) == (stable & bit)) {
            count[i] = 0;
            continue;
        }
        if (++count[i] < DEBOUNCE_MS)
            continue;
        count[i] = 0;
        stable ^= bit;
        if (stable & bit)
            pressed |= bit;
    }
    return pressed;
}
