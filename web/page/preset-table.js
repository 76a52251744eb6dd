// The table of presets (what each framework's convention sets), in the language of the moment.
import { PRESETS, PRESET_NAMES } from '../lib/index.js';
import { firstFunction } from '../model/convention.js';

/** Fills `body` (the table's <tbody>) with one row per preset, worded by `t`. */
export function fillPresetTable(body, t) {
  body.replaceChildren(
    ...PRESET_NAMES.map((name) => {
      const preset = PRESETS[name];
      const row = document.createElement('tr');
      const cells = [
        t(`option.preset.${name}`),
        t(`option.layout.${preset.layout}`),
        t(`option.exponent.${preset.exponent}`),
        t(`option.order.${preset.order}`),
        t(`option.angle.${preset.angle}`),
        preset.paddingRow === null ? t('compare.none') : String(preset.paddingRow),
        preset.oddColumn === 'zero' ? t('compare.oddZero') : t('compare.oddAlone', firstFunction(preset)),
        t(`preset.${name}`),
      ];
      cells.forEach((text, index) => {
        const cell = document.createElement(index === 0 ? 'th' : 'td');
        if (index === 0) cell.scope = 'row';
        cell.textContent = text;
        row.append(cell);
      });
      return row;
    }),
  );
}
