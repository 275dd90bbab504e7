import { useId, useState, type DragEvent, type ReactNode } from 'react';
import { Icon, type IconName } from '../../components/Icon';

/**
 * The card of the license pages where a person drops an image or chooses one: `onFile` gets the
 * file (choosing the same file again calls it again); `privacy` says what happens to the file.
 */
export function ImageDrop({ icon, accept, privacy, onFile, testId }: { icon: IconName; accept: string; privacy: ReactNode; onFile: (file: File) => void; testId: string }) {
  const id = useId();
  const [over, setOver] = useState(false);

  function dropped(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  }

  return (
    <div
      className={`card license-drop${over ? ' license-drop--over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={dropped}
      data-testid={testId}
    >
      <Icon name={icon} size={36} />
      <p className="license-drop__title">Drop an image here</p>
      <p className="license-drop__or">or</p>
      <label className="button button--primary license-drop__choose" htmlFor={`${id}-file`}>
        Choose an image
      </label>
      <input
        id={`${id}-file`}
        className="sr-only"
        type="file"
        accept={accept}
        aria-describedby={`${id}-privacy`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
      <p id={`${id}-privacy`} className="license-drop__privacy">
        <Icon name="shield" size={16} /> {privacy}
      </p>
    </div>
  );
}
