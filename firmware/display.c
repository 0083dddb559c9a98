#include "display.h"

#include "hw.h"

uint8_t display_glyph(char c)
{
    switch (c) {
    case '0': return SEG_A | SEG_B | SEG_C | SEG_D | SEG_E | SEG_F;
    case '1': return SEG_B | SEG_C;
    case '2': return SEG_A | SEG_B | SEG_D | SEG_E | SEG_G;
    case '3': return SEG_A | SEG_B | SEG_C | SEG_D | SEG_G;
    case '4': return SEG_B | SEG_C | SEG_F | SEG_G;
    case '5': case 'S': return SEG_A | SEG_C | SEG_D | SEG_F | SEG_G;
    case '6': return SEG_A | SEG_C | SEG_D | SEG_E | SEG_F | SEG_G;
    case '7': return SEG_A | SEG_B | SEG_C;
    case '8': return SEG_A | SEG_B | SEG_C | SEG_D | SEG_E | SEG_F | SEG_G;
    case '9': return SEG_A | SEG_B | SEG_C | SEG_D | SEG_F | SEG_G;
    case '-': return SEG_G;
    case 'C': return SEG_A | SEG_D | SEG_E | SEG_F;
    case 'r': return SEG_E | SEG_G;
    case 'L': return SEG_D | SEG_E | SEG_F;
    case 'o': return SEG_C | SEG_D | SEG_E | SEG_G;
    case 't': return SEG_D | SEG_E | SEG_F | SEG_G;
    default: return 0;
    }
}

/* Right-align v in width digits at seg[at]. */
static void put_number(uint8_t *seg, uint8_t at, uint8_t width, uint16_t v)
{
    for (uint8_t i = 0; i < width; i++)
        seg[at + i] = 0;
    uint8_t i = width;
    do {
        seg[at + --i] = display_glyph((char)('0' + v % 10));
        v /= 10;
    } while (v && i);
}

static void put_text(uint8_t *seg, const char *flash_text)
{
    for (uint8_t i = 0; i < 8; i++) {
        char c = (char)P_READ(flash_text + i);
        seg[i] = display_glyph(c);
    }
}

void display_render(const unit_state_t *s, uint8_t blink_on, uint8_t seg[8], uint8_t *leds)
{
    *leds = 0;
    if (s->link_lost) {
        put_text(seg, P("  LoSt  "));
        return;
    }
    *leds = LEDS_LINK;
    if (!s->shown) {
        put_text(seg, P("--    --"));
        return;
    }
    put_number(seg, 0, 2, s->score_white);
    put_number(seg, 6, 2, s->score_black);
    uint16_t cube = s->cube == 1 ? 64 : s->cube;
    if (s->offer != '-')
        cube = (uint16_t)(s->cube * 2);
    put_number(seg, 2, 4, cube);
    if (s->offer != '-' && !blink_on)
        seg[2] = seg[3] = seg[4] = seg[5] = 0;
    if (s->flag == 'c') {
        seg[2] = display_glyph('C');
        seg[3] = display_glyph('r');
    }
    if (s->owner == 'w')
        *leds |= LEDS_WHITE_OWNS;
    else if (s->owner == 'b')
        *leds |= LEDS_BLACK_OWNS;
    else
        *leds |= LEDS_CENTRE;
    if (s->offer != '-')
        *leds |= LEDS_OFFER;
}
