import { useState, type KeyboardEvent } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useTranslate } from 'ra-core';

/** A password input with the show/hide eye; onEnter submits where the form does not. */
export function PasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  testId?: string;
  onEnter?: () => void;
  autoFocus?: boolean;
}) {
  const t = useTranslate();
  const [shown, setShown] = useState(false);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && props.onEnter) {
      e.preventDefault();
      props.onEnter();
    }
  };
  return (
    <TextField
      label={props.label}
      type={shown ? 'text' : 'password'}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      onKeyDown={onKeyDown}
      autoComplete="current-password"
      autoFocus={props.autoFocus}
      error={Boolean(props.error)}
      helperText={props.error ?? ' '}
      slotProps={{
        htmlInput: { 'data-testid': props.testId },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={t(shown ? 'console.login.hidePassword' : 'console.login.showPassword')}
                onClick={() => setShown((s) => !s)}
                edge="end"
              >
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
