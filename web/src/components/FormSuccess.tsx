import { useEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon';
import './FormSuccess.css';

interface FormSuccessProps {
  /** The form's card classes, so the card keeps the form's look. */
  className: string;
  title: string;
  titleClassName?: string;
  children: ReactNode;
  'data-testid': string;
}

/** A sent form's confirmation: announced as a status, its heading focused so keyboard users land on it. */
export function FormSuccess({ className, title, titleClassName, children, 'data-testid': testId }: FormSuccessProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className={`card form-success ${className}`} role="status" data-testid={testId}>
      <span className="badge-circle form-success__icon" aria-hidden="true">
        <Icon name="check" size={32} />
      </span>
      <h2 ref={heading} tabIndex={-1} className={titleClassName}>
        {title}
      </h2>
      {children}
    </div>
  );
}
