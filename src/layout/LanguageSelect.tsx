import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TranslateIcon from '@mui/icons-material/Translate';
import { LANGUAGES, type Language } from '../domain/constants';
import { useTranslate } from 'ra-core';
import { useClientState } from '../state/useClientState';
import { documentTitle, loadMessages } from '../i18n/messages';
import { setLanguage } from '../state/clientState';

/** Loads the language's catalogue, then sets it everywhere (react-admin follows the client state), the cookie and the title. */
export async function changeLanguage(language: Language): Promise<void> {
  await loadMessages(language);
  setLanguage(language);
  document.title = documentTitle(language);
  document.documentElement.lang = language;
}

/** The language dropdown: the current language is disabled. */
export function LanguageSelect({ light = false }: { light?: boolean }) {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        startIcon={<TranslateIcon />}
        // The name holds the visible text (axe label-content-name-mismatch): "Language: English".
        aria-label={t('console.layout.languageCurrent', { name: t(`console.lang.${language}`) })}
        aria-haspopup="menu"
        data-testid="lang-select"
        sx={{
          textTransform: 'none',
          ...(light
            ? { bgcolor: 'rgba(255,255,255,0.85)', color: 'text.primary', '&:hover': { bgcolor: '#fff' } }
            : { minWidth: 0, flexShrink: 0, '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }),
        }}
      >
        <Box component="span" sx={light ? undefined : { display: { xs: 'none', sm: 'inline' } }}>
          {t(`console.lang.${language}`)}
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem
            key={lang}
            disabled={lang === language}
            data-testid={`lang-${lang}`}
            onClick={() => {
              setAnchor(null);
              changeLanguage(lang);
            }}
          >
            {t(`console.lang.${lang}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
