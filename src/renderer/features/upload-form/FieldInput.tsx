/** One generated input of the upload form, drawn from its FormFieldSpec, with its errors below. */
import { useId } from 'react';
import { inputText } from './coerce-value.ts';
import type { FormFieldSpec } from './form-model.ts';
import styles from './upload-form.module.css';

export interface FieldInputProps {
  spec: FormFieldSpec;
  value: string;
  isNull: boolean;
  errors: readonly string[];
  onChange: (value: string) => void;
  onNullChange: (isNull: boolean) => void;
}

function hint(spec: FormFieldSpec): string {
  const parts: string[] = [spec.type];
  if (spec.to) parts.push(`→ ${spec.to}`);
  if (spec.maxLength !== undefined) parts.push(`≤ ${spec.maxLength} chars`);
  if (spec.min !== undefined || spec.max !== undefined) parts.push(`${spec.min ?? '…'}–${spec.max ?? '…'}`);
  if (spec.defaultValue !== undefined) parts.push(`default ${JSON.stringify(spec.defaultValue)}`);
  return parts.join(' · ');
}

export function ErrorList({ errors, id }: { errors: readonly string[] | undefined; id?: string }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} role="alert">
      {errors.map((e) => (
        <p key={e} className={styles.error}>
          {e}
        </p>
      ))}
    </div>
  );
}

export function FieldInput({ spec, value, isNull, errors, onChange, onNullChange }: FieldInputProps) {
  const id = useId();
  const errorId = `${id}-errors`;
  const common = {
    id,
    disabled: isNull,
    'aria-invalid': errors.length > 0,
    'aria-describedby': errors.length > 0 ? errorId : undefined,
    'data-field': spec.name,
  };
  let control;
  switch (spec.input) {
    case 'select':
      control = (
        <select {...common} className={styles.select} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{spec.defaultValue !== undefined ? `(default: ${inputText(spec.defaultValue)})` : '(not set)'}</option>
          {(spec.choices ?? []).map((c) => (
            <option key={inputText(c)} value={inputText(c)}>
              {inputText(c)}
            </option>
          ))}
        </select>
      );
      break;
    case 'boolean':
      control = (
        <select {...common} className={styles.select} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">(not set)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
      break;
    case 'textarea':
    case 'json':
      control = (
        <textarea {...common} className={styles.textarea} value={value} placeholder={spec.input === 'json' ? 'JSON value' : ''} onChange={(e) => onChange(e.target.value)} />
      );
      break;
    default:
      control = (
        <input
          {...common}
          className={styles.input}
          type={spec.input === 'integer' || spec.input === 'number' || spec.input === 'ref' ? 'number' : spec.input === 'date' ? 'date' : spec.input === 'datetime' ? 'datetime-local' : 'text'}
          step={spec.input === 'number' ? 'any' : undefined}
          min={spec.min}
          max={spec.max}
          maxLength={spec.maxLength}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={`${styles.label} ${spec.required ? styles.required : ''}`}>
        {spec.name}
      </label>
      <div>
        <div className={styles.row}>
          {control}
          {spec.nullable && (
            <label className={styles.hint}>
              <input type="checkbox" checked={isNull} onChange={(e) => onNullChange(e.target.checked)} /> null
            </label>
          )}
        </div>
        <span className={styles.hint}>{hint(spec)}</span>
        <ErrorList errors={errors} id={errorId} />
      </div>
    </div>
  );
}
